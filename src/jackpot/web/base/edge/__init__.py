"""The HTTP edge every feature shares: middlewares, who is on the line, forms, templates, errors."""
