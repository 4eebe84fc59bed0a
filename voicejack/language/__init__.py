"""The spoken (and typed) command language: from what was heard to a legal move, a question or a command."""
