"""Tests of the records, what SGF properties say of them, and their JSON codec."""
