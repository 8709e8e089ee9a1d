"""html"""
