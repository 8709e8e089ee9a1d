"""The web2text mode: the learned model, its block features and its trained weights."""
