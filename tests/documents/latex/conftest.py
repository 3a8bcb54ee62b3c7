from tests.rewriting.latex_project.conftest import project  # noqa: F401 - a fixture (every shared project), used by name
