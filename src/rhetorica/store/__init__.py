"""rhetorica.store"""
