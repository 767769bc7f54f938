"""Arms: one run, several variants of settings or tool definitions, compared pair by pair."""
