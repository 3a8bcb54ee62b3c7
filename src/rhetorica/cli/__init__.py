"""rhetorica.cli"""
