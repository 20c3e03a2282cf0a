"""What both faces of the web server share: settings, the store and its migrations, the bus and
presence between processes, the guard in front of every route, the workers, the protocol's base
and the refusals, outboxes and sockets both live hubs use. Nothing here imports a face."""
