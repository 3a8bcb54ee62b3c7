"""rhetorica.models.providers"""
