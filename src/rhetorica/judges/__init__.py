"""rhetorica.judges"""
