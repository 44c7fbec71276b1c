"""The bgtools test suite (a package, so that its helpers import as ``tests.helpers``)."""
