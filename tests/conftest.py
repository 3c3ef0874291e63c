import pytest


def pytest_configure(config):
    config.addinivalue_line("markers", "openspiel: cross-checks that run OpenSpiel itself")


@pytest.fixture(scope="session")
def pyspiel():
    return pytest.importorskip("pyspiel")
