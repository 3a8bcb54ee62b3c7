"""rhetorica.analysis"""
