"""deployer: the parts of tools/deploy.py, one topic a module.

Laptop only, standard library only; the firmware never imports it. tools/deploy.py
is the command and puts this folder's parent on sys.path, so the package is
imported as ``deployer`` (``deployer.cli.main`` runs the command).
"""
