from paperlint.cli import main

main()
