"""A ZMP walk for the Nao; see the package README."""
