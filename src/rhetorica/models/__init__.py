"""rhetorica.models"""
