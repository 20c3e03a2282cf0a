"""Omiga's face of the web server: the card tables (live hub, one table, its view), the relay
between processes, the bots' worker, the protocol and the routes."""
