import sys

from reussite.cli import main

sys.exit(main())
