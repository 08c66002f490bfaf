"""Pure helpers that the service and the ways in share: no I/O, no Discord, no storage."""
