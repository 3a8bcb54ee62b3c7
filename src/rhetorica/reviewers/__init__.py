"""rhetorica.reviewers"""
