"""rhetorica.rewriting"""
