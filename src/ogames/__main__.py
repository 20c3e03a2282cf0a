"""`python -m ogames …`: the same command as the installed `ogames` script."""

from ogames.cli.app import main

if __name__ == "__main__":
    main()
