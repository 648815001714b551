"""deployer: the parts of tools/deploy.py, one topic a module.

Laptop only, standard library only; the firmware never imports it. tools/deploy.py
is the command; the package is imported as ``tools.deployer`` from the repository's
root (``tools.deployer.cli.main`` runs the command).
"""
