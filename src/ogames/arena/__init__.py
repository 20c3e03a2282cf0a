"""Layer 5: matches and tournaments between players: Omiga's real-time bot matches on a simulated
clock (`realtime_match`), and round-robin tournaments on any game in worker processes with Elo
tables, plots and resumable folders (`tournament`, with `schedule`, `play`, `elo` and `report`), and
the Wilson interval of a match's share of wins (`shares`)."""
