"""Scorecards and comparisons rendered as JSON, text, Markdown, JUnit XML and the page's view model.
Pure: strings and plain values out, never printed or written here.
"""
