from voicejack.cli import main

raise SystemExit(main())
