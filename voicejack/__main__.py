from voicejack.app.main import main

raise SystemExit(main())
