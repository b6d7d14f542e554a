from ka_tui.cli import main

raise SystemExit(main())
