"""Layer 5: matches between players (today: Omiga's real-time bot matches on a simulated clock)."""
