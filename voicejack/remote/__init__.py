"""The client side of a server table (issue 14): the line to the server, the seat kept across drops, and
the front end that narrates a remote table with the same words, sounds and commands as a local one."""
