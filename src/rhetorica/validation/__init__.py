"""rhetorica.validation"""
