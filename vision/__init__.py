"""Photo reader: pixels to a Reading (see DESIGN.md)."""
