"""The command line's pieces (private): files, config, output, work, run, graph.

``autograph_cli.cli`` is the public entry point; these modules may change.
"""
