/** Units (not in the spec): the admin's tree of units, the history of one's units, a case shared with units. */
export const unitsTexts = {
  units: {
    /** /admin/units: the tree, its level names and each unit's members. */
    admin: {
      navLink: 'Units',
      title: 'Units',
      /**
       * The page's intro. An admin (`editsTree`) names the levels on the page itself; anyone else reads
       * the tree's shape from the level names as the admin gave them, whatever they are.
       */
      lead: (levels: readonly string[], editsTree: boolean) => {
        const roles =
          'Supervisors see the work of their unit and the units below it; unit admins manage their members.';
        if (editsTree)
          return `The tree your agency is organised in, the names of its levels and the members of each unit. ${roles}`;
        const first = levels[0];
        const last = levels[levels.length - 1];
        if (!first || !last) return `The units your agency is organised in and their members. ${roles}`;
        if (levels.length === 1)
          return `The units your agency is organised in, all on one level (${first}), and their members. ${roles}`;
        return `The units your agency is organised in, on ${levels.length} levels from ${first} at the top down to ${last}, and their members. ${roles}`;
      },
      levelsTitle: 'Levels',
      levelsLead:
        'The name of each level of the tree, top first. A unit takes the name of its level from its depth.',
      levelLabel: (n: number) => `Level ${n}`,
      addLevel: 'Add level',
      removeLevel: 'Remove',
      removeLevelLabel: (n: number, name: string) => `Remove level ${n}${name ? ` (${name})` : ''}`,
      saveLevels: 'Save levels',
      savingLevels: 'Saving...',
      levelsSaved: 'Levels saved.',
      levelsMax: (n: number) => `At most ${n} levels.`,
      treeTitle: 'Tree',
      treeLead: 'Choose a unit to see its members.',
      treeCount: (n: number) => `${n.toLocaleString('en-US')} ${n === 1 ? 'unit' : 'units'}`,
      treeEmpty: 'No units yet. Add the top of the tree first.',
      addTop: 'Add top unit',
      members: (n: number) => `${n.toLocaleString('en-US')} ${n === 1 ? 'member' : 'members'}`,
      defaultBadge: 'Default',
      defaultHint: 'New accounts join the default unit.',
      actionsLabel: (name: string) => `Actions for ${name}`,
      addBelow: 'Add below',
      addBelowLabel: (name: string) => `Add below ${name}: a new unit under it`,
      rename: 'Rename',
      renameLabel: (name: string) => `Rename ${name}`,
      move: 'Move',
      moveLabel: (name: string) => `Move ${name} under another unit`,
      delete: 'Delete',
      deleteLabel: (name: string) => `Delete ${name}`,
      selected: 'Selected',
      addTitle: (parent: string | null, level: string) =>
        parent ? `New ${level} under ${parent}` : `New ${level} at the top`,
      nameLabel: 'Name',
      create: 'Add unit',
      creating: 'Adding...',
      created: (name: string) => `${name} added.`,
      renameTitle: (name: string) => `Rename ${name}`,
      saveName: 'Save name',
      saving: 'Saving...',
      renamed: 'Unit renamed.',
      moveTitle: (name: string) => `Move ${name}`,
      moveLead: 'The unit keeps its members and the units below it, which move with it.',
      parentLabel: 'New parent',
      topOfTree: 'Top of the tree',
      parentOption: (name: string, level: string) => `${name} (${level})`,
      moveSubmit: 'Move unit',
      moving: 'Moving...',
      moved: 'Unit moved.',
      deleteTitle: (name: string) => `Delete ${name}?`,
      deleteConfirm: 'The unit is empty: it has no members and no units below it. This cannot be undone.',
      deleting: 'Deleting...',
      deleted: (name: string) => `${name} deleted.`,
      cancel: 'Cancel',
      membersTitle: (name: string) => `Members of ${name}`,
      /** Under the members' heading: the unit's level (its name as the admin gave it, or 'Level 5' past the named ones). */
      membersLead: (level: string) =>
        `Its level in the tree: ${level}. Members with a role here also reach the units below it, as that role allows.`,
      noSelection: 'Choose a unit in the tree to see its members.',
      membersEmpty: 'No members yet.',
      memberList: 'Member list',
      memberName: 'Name',
      memberEmail: 'E-mail',
      memberRole: 'Role',
      memberAdded: 'Added',
      /** Under the members' table while some of its columns are out of its frame (a phone, a narrow window). */
      memberListScroll: 'Scroll the table sideways to see every column.',
      memberActions: 'Actions',
      roleOf: (name: string) => `Role of ${name}`,
      remove: 'Remove',
      removeLabel: (name: string) => `Remove ${name} from the unit`,
      removed: (name: string) => `${name} removed from the unit.`,
      roleChanged: (name: string, role: string) => `${name} is now ${role}.`,
      addMemberTitle: 'Add a member',
      addMemberLead: 'An existing account, by its e-mail address. A member already here gets the new role.',
      emailLabel: 'E-mail address',
      roleLabel: 'Role',
      addMember: 'Add member',
      addingMember: 'Adding...',
      memberSaved: (email: string) => `${email} saved as a member.`,
      readOnly: 'You can see these members; only an admin or a unit admin above can change them.',
      closeMembers: 'Close members',
      /** A unit's retention period: its row in the tree and the dialog that sets or clears it. */
      retentionDays: (n: number) => `Keeps results ${n.toLocaleString('en-US')} ${n === 1 ? 'day' : 'days'}`,
      retentionFollows: "Follows the deployment's period",
      retentionAboveCeiling: (ceiling: number) =>
        `No effect beyond the deployment's ${ceiling.toLocaleString('en-US')} ${ceiling === 1 ? 'day' : 'days'}`,
      retention: 'Retention',
      retentionLabel: (name: string) => `Retention of ${name}: how long its searches' results are kept`,
      retentionTitle: (name: string) => `Retention of ${name}`,
      retentionLead:
        "How long the results of searches by this unit's members are kept. A member of several units keeps them for the shortest period of their units.",
      retentionDaysLabel: 'Days to keep results',
      retentionHint: (ceiling: number | null) =>
        ceiling === null
          ? "From 1 to 3,650 days, never longer than the deployment's period (Settings). Empty: follow the deployment's period."
          : `From 1 to 3,650 days. The deployment keeps results ${ceiling.toLocaleString('en-US')} ${ceiling === 1 ? 'day' : 'days'} at most (Settings): a longer period has no effect beyond that. Empty: follow the deployment's period.`,
      retentionWarning: (days: number, ceiling: number) =>
        `${days.toLocaleString('en-US')} days is above the deployment's ${ceiling.toLocaleString('en-US')}: results are still removed after ${ceiling.toLocaleString('en-US')} ${ceiling === 1 ? 'day' : 'days'} unless the deployment's period is raised.`,
      retentionSave: 'Save period',
      retentionClear: "Follow the deployment's period",
      retentionSaved: (name: string, days: number) =>
        `${name} keeps results ${days.toLocaleString('en-US')} ${days === 1 ? 'day' : 'days'}.`,
      retentionCleared: (name: string) => `${name} follows the deployment's period.`,
    },
    /** /history: the supervisor's view of the searches in their units. */
    history: {
      scopeLabel: 'Whose searches',
      mine: 'Mine',
      unit: 'My units',
      by: 'By',
      unitLead: 'The searches of everyone in the units you supervise and the units below them.',
      unitEmpty: 'No searches in your units yet.',
      /** Open on a row of someone else's search, named with whose it is. */
      openTheirsLabel: (query: string, name: string) =>
        `Open the stored result of ${query}, searched by ${name}`,
      /** Under the list: why Export CSV is not offered in this view. */
      csvOwnOnly:
        'Export CSV saves only your own searches: switch to Mine for it. Each opened result still exports on its own.',
      /** A reopened search of someone else's (results page, stored-result dialog). */
      readAs: (name: string, email: string) => `Search by ${name} (${email}), read as their supervisor.`,
      readAsHint:
        'Only they can make a PDF report of it or add it to a case; you can still export it as CSV, JSON or Excel.',
      storedAt: (when: string) => `Searched ${when}; read from your units' history at no cost.`,
    },
    /** /cases/{id}: the units a case is shared with. */
    caseShare: {
      title: 'Units',
      lead: 'Members of these units, and of the units below them, see the case.',
      empty: 'Not shared with any unit.',
      sharedAt: (when: string) => `Shared ${when}`,
      unitLabel: 'Share with a unit',
      choose: 'Choose a unit',
      option: (path: string, level: string) => `${path} (${level})`,
      share: 'Share',
      sharing: 'Sharing...',
      shared: (name: string) => `Shared with ${name}.`,
      noMoreUnits: 'Every unit you can see already has this case.',
      stop: 'Stop sharing',
      stopLabel: (name: string) => `Stop sharing with ${name}`,
      stopped: (name: string) => `No longer shared with ${name}.`,
      unitsFailed: 'The units could not be loaded.',
    },
  },
} as const;
