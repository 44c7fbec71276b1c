"""Tests of ``bgtools.readers``: each format's reader, detection and the binary decoders."""
