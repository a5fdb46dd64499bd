"""The app's flows as objects the app owns, each talking to the app through `port.Port` (no
Textual): `curation` (plan → diff → apply → re-plan), `repository` (instruction-file fixes),
`fixes` (findings' fixes), `undo` (ctrl+z and the history over both journals)."""
