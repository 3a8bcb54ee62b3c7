"""rhetorica.report"""
