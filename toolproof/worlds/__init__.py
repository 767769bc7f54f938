"""Stateful worlds for scenarios: tables, tools with declarative effects, and the scenarios that
run over them (issue 39). model.py holds the frozen records, exprs.py the closed expression set,
engine.py runs one tool call against a state, load.py checks a world file and builds the records.

Pure: no I/O (datafiles.bundled_worlds reads data/worlds/*.json). Re-exports nothing: import the
module that holds the idea.
"""
