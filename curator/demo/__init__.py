"""The demo: the bundled sample repository copied for the user (`sample_copy`), given a git history
(`repository`) and two Claude Code sessions (`transcripts`) so review, drift, growth and sessions
have something to show. Opened by discovery when no store is found."""
