"""`from tirx.script import tirx as T`."""
