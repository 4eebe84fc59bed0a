"""The application layer: the `voicejack` command and its subcommands.

Nothing in the library packages imports from here; each module turns
command-line arguments into calls on the layers below and prints or plays
the result.
"""
