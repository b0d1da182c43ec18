"""The table's books as the pit and the count room keep them: inventories, fills, credits, buy-ins, the drop."""
