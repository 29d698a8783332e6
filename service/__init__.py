"""The edge facing clients: the Flask REST API and the ``kotlik`` command line."""
