from cardforge.cli import run

if __name__ == "__main__":  # pragma: no cover
    run()
