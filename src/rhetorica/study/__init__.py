"""rhetorica.study"""
