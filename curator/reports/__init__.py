"""Renderers for findings: text (Rich), json, github annotations, sarif."""

from .findings_report import render_github, render_json, render_sarif, render_text, summary

__all__ = ["render_github", "render_json", "render_sarif", "render_text", "summary"]
