# Shortcuts for the two README commands (make is optional: python3 make.py does the same).
.PHONY: run test bench
run:
	python3 make.py run
test:
	python3 make.py test
bench:
	.venv/bin/python -m bench
