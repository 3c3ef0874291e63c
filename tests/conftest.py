import pytest


def pytest_configure(config):
    config.addinivalue_line("markers", "openspiel: cross-checks that run OpenSpiel itself")


@pytest.fixture(scope="session")
def pyspiel():
    return pytest.importorskip("pyspiel")


def scripted_play(play, answer, limit: int = 300, **kwargs):
    """Plays a terminal game in-process: ``play(read=..., out=..., **kwargs)`` (a game's terminal
    loop with its bots chosen), ``answer(prompt, said so far)`` giving each line. Returns what
    was said, the prompts and what ``play`` returned; a script that loops on a refused answer
    meets the end of input after ``limit`` prompts."""
    import io

    out, prompts = io.StringIO(), []

    def read(prompt: str) -> str:
        prompts.append(prompt)
        if len(prompts) > limit:
            raise EOFError
        return answer(prompt, out.getvalue())

    result = play(read=read, out=out, **kwargs)
    return out.getvalue(), prompts, result
