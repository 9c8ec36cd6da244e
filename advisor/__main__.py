from advisor.cli.entry import run

run()
