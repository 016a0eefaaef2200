"""Agents: anything that chooses actions for a seat (built-in policies, subprocess bots, people)."""
