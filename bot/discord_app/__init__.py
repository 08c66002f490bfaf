"""The Discord adapter: turns interactions into service calls and outboxes into Discord calls."""
