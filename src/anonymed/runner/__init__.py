"""Batch runners: process a corpus record by record in one process (local) or shard by shard."""
