"""rhetorica.documents"""
