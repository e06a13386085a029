-- From OpenNefia (https://github.com/Ruin0x11/OpenNefia, MIT licence: mods/elona/locale/LICENSE),
-- src/mod/elona/locale/en/item.lua at commit dbe3eaa38fb8730bc74007bf9734a54376429490, unchanged.
local item = {
  academic_table = {
    desc = {
      main = {
        text = "A desk used for students in Asseria schools,"
      }
    },
    name = "academic table"
  },
  acidproof_liquid = {
    desc = {
      main = {
        text = "Use on an item to protect it from acid,"
      }
    },
    name = "acidproof liquid"
  },
  alchemy_kit = {
    desc = {
      main = {
        text = "An alchemy kit with tools for basic alchemy,"
      }
    },
    name = "alchemy kit"
  },
  aloe = {
    desc = {
      main = {
        text = "A type of vegetation,"
      }
    },
    name = "aloe"
  },
  alraunia = {
    desc = {
      main = {
        text = "A type of herb,"
      }
    },
    name = "alraunia"
  },
  altar = {
    desc = {
      main = {
        text = "An altar to the gods"
      }
    },
    name = "altar"
  },
  alud = {
    name = "<Al'ud>",
    unidentified_name = "tough lute"
  },
  ancient_book = {
    desc = {
      main = {
        text = "A book written in a dead language,"
      }
    },
    name = "ancient book",
  },
  ancient_tomb = {
    desc = {
      main = {
        text = "An ancient Euldernan style tomb,"
      }
    },
    name = "ancient tomb"
  },
  anemos = {
    desc = {
      main = {
        text = "A type of herb,"
      }
    },
    name = "anemos"
  },
  animal_bone = {
    desc = {
      main = {
        text = "Probably leftovers from a meal,"
      }
    },
    name = "animal bone"
  },
  anvil = {
    desc = {
      main = {
        text = "An anvil used for blacksmithing,"
      }
    },
    name = "anvil"
  },
  api_nut = {
    desc = {
      main = {
        text = "A nut used to make candy"
      }
    },
    name = "api nut"
  },
  apple = {
    desc = {
      main = {
        text = "A type of fruit,"
      }
    },
    name = "apple"
  },
  arbalest = {
    name = "<Arbalest>",
    unidentified_name = "purple necklace"
  },
  armor = {
    desc = {
      main = {
        text = "Armor on display,"
      }
    },
    name = "armor"
  },
  armored_boots = {
    desc = {
      main = {
        text = "A pair of boots with armored plating,"
      }
    },
    name = "armored boots"
  },
  armored_cloak = {
    desc = {
      main = {
        text = "A reinforced cloak designed for protection,"
      }
    },
    name = "armored cloak"
  },
  armored_ring = {
    desc = {
      main = {
        text = "Protects a portion of your finger,"
      }
    },
    name = "armored ring"
  },
  arrow = {
    desc = {
      main = {
        text = "Hand forged arrows,"
      }
    },
    name = "arrow"
  },
  artifact_seed = {
    desc = {
      main = {
        text = "A type of seed,"
      }
    },
    name = "artifact seed"
  },
  aurora_ring = {
    desc = {
      main = {
        text = "Protects you from bad weather,"
      }
    },
    name = "aurora ring"
  },
  axe_of_destruction = {
    name = "<Axe of Destruction>",
    unidentified_name = "giant axe"
  },
  bait = {
    desc = {
      main = {
        text = "Bait for a fishing pole,"
      }
    },
    name = "bait"
  },
  banded_mail = {
    desc = {
      main = {
        text = "A form of mail reinforced with leather,"
      }
    },
    name = "banded mail"
  },
  bar_table_alpha = {
    desc = {
      main = {
        text = "A table holding alcohol,"
      }
    },
    name = "bar table alpha"
  },
  bar_table_beta = {
    desc = {
      main = {
        text = "A table with coasters and peanut boxes,"
      }
    },
    name = "bar table beta"
  },
  barbecue_set = {
    desc = {
      main = {
        text = "An amazing set of cooking tools,"
      }
    },
    name = "barbecue set"
  },
  bardiche = {
    desc = {
      main = {
        text = "A single-bladed axe resembling a polearm,"
      }
    },
    name = "bardiche"
  },
  barn = {
    name = "barn"
  },
  barrel = {
    desc = {
      main = {
        text = "A barrel for storing items,"
      }
    },
    name = "barrel"
  },
  basket = {
    desc = {
      main = {
        text = "It's empty,"
      }
    },
    name = "basket"
  },
  bathtub = {
    desc = {
      main = {
        text = "A porcelain bathtub,"
      }
    },
    name = "bathtub"
  },
  battle_axe = {
    desc = {
      main = {
        text = "A large double-bladed axe"
      }
    },
    name = "battle axe"
  },
  beaker = {
    desc = {
      main = {
        text = "Fragile scientific equipment,"
      }
    },
    name = "beaker"
  },
  beggars_pendant = {
    name = "<Beggar's Pendant>",
    unidentified_name = "dirty pendant"
  },
  bejeweled_amulet = {
    desc = {
      main = {
        text = "An amulet that shows one's wealth"
      }
    },
    name = "bejeweled amulet"
  },
  bejeweled_chest = {
    desc = {
      main = {
        text = "An ancient jeweled chest,"
      }
    },
    name = "bejeweled chest"
  },
  big_cupboard = {
    desc = {
      main = {
        text = "Holds a lot of dishes,"
      }
    },
    name = "big cupboard"
  },
  big_foliage_plant = {
    desc = {
      main = {
        text = "The leaves look fake,"
      }
    },
    name = "big foliage plant"
  },
  big_table = {
    name = "big table"
  },
  bill = {
    name = "bill",
    unidentified_name = "lousy paper",

    title = function(amount)
       return ("<%s gp>"):format(amount)
    end
  },
  black_board = {
    desc = {
      main = {
        text = "Technophiles use this to teach,"
      }
    },
    name = "black board"
  },
  black_crystal = {
    desc = {
      main = {
        text = "A black crystal,"
      }
    },
    name = "black crystal"
  },
  blank_disc = {
    desc = {
      main = {
        text = "Asserian computer technology,"
      }
    },
    name = "blank disc"
  },
  blood_moon = {
    name = "<Blood Moon>",
    unidentified_name = "bloody mace"
  },
  blue_capsule_drug = {
    name = "blue capsule drug",
    unidentified_name = "blue capsule"
  },
  blue_stall = {
    name = "blue stall"
  },
  blue_treasure_machine = {
    desc = {
      main = {
        text = "A treasure machine accepting very rare coins,"
      }
    },
    name = "blue treasure machine"
  },
  board = {
    desc = {
      main = {
        text = 'A note on this board reads ""Wante'
      }
    },
    name = "board"
  },
  bolt = {
    desc = {
      main = {
        text = "Standard equipment for hunting rabbits,"
      }
    },
    name = "bolt"
  },
  bomb_fish = {
    desc = {
      main = {
        text = "A type of fish,"
      }
    },
    name = "bomb fish"
  },
  bone_fragment = {
    desc = {
      main = {
        text = "Some bones are valuable"
      }
    },
    name = "bone fragment"
  },
  bonfire = {
    desc = {
      main = {
        text = "You smell something strange burning,"
      }
    },
    name = "bonfire"
  },
  book_unreadable = {
    desc = {
      main = {
        text = "A leather bound book,"
      }
    },
    name = "book",
    unidentified_name = "book"
  },
  book = {
    desc = {
      main = {
        text = "A book with watermarks,"
      }
    },
    name = "book",
    unidentified_name = "book"
  },
  book_of_bokonon = {
    name = "Bokonon"
  },
  book_of_rachel = {
    desc = {
      main = {
        text = "A book decorated with pictures,"
      }
    },
    name = "book"
  },
  book_of_resurrection = {
    desc = {
      main = {
        text = "A book said to hold the secrets of life itself,"
      }
    },
    name = "resurrection"
  },
  bookshelf = {
    desc = {
      main = {
        text = "Because there is no public library in Nort Tyris,"
      }
    },
    name = "bookshelf"
  },
  boots = {
    desc = {
      main = {
        text = "A standard pair of boots,"
      }
    },
    name = "boots"
  },
  boring_bed = {
    desc = {
      main = {
        text = "A refurbished be"
      }
    },
    name = "boring bed"
  },
  bottle_of_beer = {
    desc = {
      main = {
        text = "A bottle of beer,"
      }
    },
    name = "beer",
    unidentified_name = "clear liquid"
  },
  bottle_of_dirty_water = {
    desc = {
      main = {
        text = "A bottle of murky water,"
      }
    },
    name = "dirty water",
    unidentified_name = "clear liquid"
  },
  bottle_of_dye = {
    desc = {
      main = {
        text = "Expertly made dye that works on most materials,"
      }
    },
    name = "dye"
  },
  bottle_of_hermes_blood = {
    desc = {
      main = {
        text = "A rare item that increases your speed,"
      }
    },
    name = "hermes blood"
  },
  bottle_of_milk = {
    desc = {
      main = {
        text = "Milk"
      }
    },
    name = "milk"
  },
  bottle_of_salt = {
    name = "salt"
  },
  bottle_of_soda = {
    name = "soda",
    unidentified_name = "clear liquid"
  },
  bottle_of_sulfuric = {
    desc = {
      main = {
        text = "A clear odorless liquid,"
      }
    },
    name = "sulfuric",
    unidentified_name = "clear liquid"
  },
  bottle_of_water = {
    desc = {
      main = {
        text = "A bottle of pure water,"
      }
    },
    name = "water",
    unidentified_name = "clear liquid"
  },
  bottle_of_whisky = {
    desc = {
      main = {
        text = "A bottle of dwarven whisky,"
      }
    },
    name = "whisky",
    unidentified_name = "clear liquid"
  },
  bow_of_vindale = {
    name = "<Bow of Vindale>",
    unidentified_name = "shaking bow"
  },
  bowl = {
    desc = {
      main = {
        text = "I'm not sure I want to eat this,"
      }
    },
    name = "bowl"
  },
  brand_new_grave = {
    desc = {
      main = {
        text = "A recent grave... The name is still readable,"
      }
    },
    name = "brand new grave"
  },
  breast_plate = {
    desc = {
      main = {
        text = "An armor designed to protect the chest,"
      }
    },
    name = "breast plate"
  },
  breastplate = {
    desc = {
      main = {
        text = "An armor that offers decent protection,"
      }
    },
    name = "breastplate"
  },
  broken_pillar = {
    desc = {
      main = {
        text = "A pillar designed after one's common in Eluderni"
      }
    },
    name = "broken pillar"
  },
  broken_sword = {
    desc = {
      main = {
        text = "The materials can probably be salvaged,"
      }
    },
    name = "broken sword"
  },
  broken_vase = {
    desc = {
      main = {
        text = "Why would you take the time to collect the broken pieces?!?"
      }
    },
    name = "broken vase"
  },
  broom = {
    desc = {
      main = {
        text = "Useful for cleaning,"
      }
    },
    name = "broom"
  },
  bug = {
    desc = {
      main = {
        text = "not used in the game"
      }
    },
    name = "gold bar"
  },
  bugged_book = {
    desc = {
      main = {
        text = "generated when failed to create an item"
      }
    },
    name = "bugged book",
    unidentified_name = "book"
  },
  bullet = {
    desc = {
      main = {
        text = "Made by Cyber Dome In"
      }
    },
    name = "bullet"
  },
  bulletproof_jacket = {
    desc = {
      main = {
        text = "Protects from more than just bullets,"
      }
    },
    name = "bulletproof jacket"
  },
  bundle_of_bows = {
    desc = {
      main = {
        text = "A display of bows,"
      }
    },
    name = "bows"
  },
  bundle_of_weapons = {
    desc = {
      main = {
        text = "A display of weapons,"
      }
    },
    name = "weapons"
  },
  bunk_bed = {
    desc = {
      main = {
        text = "A makeshift bunk be"
      }
    },
    name = "bunk bed"
  },
  cabinet = {
    desc = {
      main = {
        text = "The drawer is locked,"
      }
    },
    name = "cabinet"
  },
  camera = {
    desc = {
      main = {
        text = "Asserian photography technology,"
      }
    },
    name = "camera"
  },
  campfire = {
    desc = {
      main = {
        text = "Due to magic these logs never burn up,"
      }
    },
    name = "campfire"
  },
  candle = {
    desc = {
      main = {
        text = "A creepy set of candles,"
      }
    },
    name = "candle"
  },
  canvas = {
    desc = {
      main = {
        text = "A canvas used for painting on,"
      }
    },
    name = "canvas"
  },
  card = {
    desc = {
      main = {
        text = "A card of a creature,"
      }
    },
    name = "card"
  },
  cargo_art = {
    desc = {
      main = {
        text = "A cargo of art supplies,"
      }
    },
    name = "art"
  },
  cargo_barrel = {
    desc = {
      main = {
        text = "A cargo of barrels,"
      }
    },
    name = "barrel"
  },
  cargo_canvas = {
    desc = {
      main = {
        text = "A cargo of canvas,"
      }
    },
    name = "canvas"
  },
  cargo_christmas_tree = {
    desc = {
      main = {
        text = "A cargo of pine trees,"
      }
    },
    name = "christmas tree"
  },
  cargo_coffin = {
    desc = {
      main = {
        text = "A cargo of coffins,"
      }
    },
    name = "coffin"
  },
  cargo_grave = {
    desc = {
      main = {
        text = "A cargo of grave materials,"
      }
    },
    name = "grave"
  },
  cargo_inner_tube = {
    desc = {
      main = {
        text = "A cargo of ship materials,"
      }
    },
    name = "inner tube"
  },
  cargo_manboo = {
    desc = {
      main = {
        text = "A cargo of fish,"
      }
    },
    name = "manboo"
  },
  cargo_noble_toy = {
    desc = {
      main = {
        text = "A cargo of children's toys,"
      }
    },
    name = "noble toy"
  },
  cargo_piano = {
    desc = {
      main = {
        text = "A cargo of pianos,"
      }
    },
    name = "piano"
  },
  cargo_rag_doll = {
    desc = {
      main = {
        text = "A cargo of children's toys,"
      }
    },
    name = "rag doll"
  },
  cargo_rope = {
    desc = {
      main = {
        text = "A cargo of rope,"
      }
    },
    name = "rope"
  },
  cargo_snow_man = {
    desc = {
      main = {
        text = "A cargo of snow men,"
      }
    },
    name = "snow man"
  },
  cargo_travelers_food = {
    desc = {
      main = {
        text = "Travel rations often used by merchants,"
      }
    },
    name = "traveler's food"
  },
  cargo_tuna_fish = {
    desc = {
      main = {
        text = "A cargo of fish,"
      }
    },
    name = "tuna fish"
  },
  cargo_whisky = {
    desc = {
      main = {
        text = "A cargo of alcohol,"
      }
    },
    name = "whisky"
  },
  carnation = {
    desc = {
      main = {
        text = "A symbol of love towards one's parents,"
      }
    },
    name = "carnation"
  },
  carpenters_tool = {
    desc = {
      main = {
        text = "Used to craft some wooden items,"
      }
    },
    name = "carpenter's tool"
  },
  carrot = {
    desc = {
      main = {
        text = "A type of vegetable,"
      }
    },
    name = "carrot"
  },
  casino_table = {
    desc = {
      main = {
        text = "It's no fun without other people,,,"
      }
    },
    name = "casino table"
  },
  cat_sisters_diary = {
    desc = {
      main = {
        text = "Nyo reading!"
      }
    },
    name = "cat sister's diary"
  },
  cbocchi = {
    desc = {
      main = {
        text = "A type of vegetable,"
      }
    },
    name = "cbocchi"
  },
  ceremony_altar = {
    desc = {
      main = {
        text = "An altar for rituals to give tribute to the gods,"
      }
    },
    name = "ceremony altar"
  },
  chain_mail = {
    desc = {
      main = {
        text = "An armor made of small linked rings,"
      }
    },
    name = "chain mail"
  },
  charm = {
    desc = {
      main = {
        text = "A good luck charm,"
      }
    },
    name = "charm"
  },
  cheap_bed = {
    desc = {
      main = {
        text = "A bed made out of recycled parts...,,"
      }
    },
    name = "cheap bed"
  },
  cheap_chair = {
    desc = {
      main = {
        text = "More like a foot stool,"
      }
    },
    name = "cheap chair"
  },
  cheap_rack = {
    desc = {
      main = {
        text = "An ordinary inexpensive rack,"
      }
    },
    name = "cheap rack"
  },
  cheap_table = {
    desc = {
      main = {
        text = "A table made out of recycled wood,"
      }
    },
    name = "cheap table"
  },
  cherry = {
    desc = {
      main = {
        text = "A type of fruit,"
      }
    },
    name = "cherry"
  },
  chest = {
    desc = {
      main = {
        text = "A heavy chest,"
      }
    },
    name = "chest"
  },
  chest_of_clothes = {
    desc = {
      main = {
        text = "A clean set of clothing,"
      }
    },
    name = "clothes"
  },
  chip = {
    desc = {
      main = {
        text = "Asserian computer technology,"
      }
    },
    name = "chip"
  },
  chochin = {
    name = "chochin"
  },
  christmas_tree = {
    desc = {
      main = {
        text = "A tree used for an ancient holiday,"
      }
    },
    name = "christmas tree"
  },
  claymore = {
    desc = {
      main = {
        text = "A large sword normally held in two hands,"
      }
    },
    name = "claymore"
  },
  claymore_unique = {
    name = "<Claymore>",
    unidentified_name = "brutish sword"
  },
  clean_bed = {
    desc = {
      main = {
        text = "At least it's clean,"
      }
    },
    name = "clean bed"
  },
  cloak = {
    desc = {
      main = {
        text = "A heavy cloak designed for travel,"
      }
    },
    name = "cloak"
  },
  closed_pot = {
    desc = {
      main = {
        text = "A covered pot,"
      }
    },
    name = "closed pot"
  },
  closet = {
    desc = {
      main = {
        text = "A closet for storing items,"
      }
    },
    name = "closet"
  },
  club = {
    desc = {
      main = {
        text = "A blunt weapon with a round end that is sometimes spiked,"
      }
    },
    name = "club"
  },
  coat = {
    desc = {
      main = {
        text = "A coat often worn when cold,"
      }
    },
    name = "coat"
  },
  coffin = {
    desc = {
      main = {
        text = "It would be disrespectful of the deceased to sleep in this"
      }
    },
    name = "coffin"
  },
  coldproof_blanket = {
    desc = {
      main = {
        text = "Produced to protect from cold areas while sleeping but has found more use protecting one's equipment!"
      }
    },
    name = "coldproof blanket"
  },
  collapsed_grave = {
    desc = {
      main = {
        text = "A common style grave that has started to crumble,"
      }
    },
    name = "collapsed grave"
  },
  comfortable_bed = {
    desc = {
      main = {
        text = "An average bed,"
      }
    },
    name = "comfortable bed"
  },
  comfortable_table = {
    desc = {
      main = {
        text = "A table often used in one's house,"
      }
    },
    name = "comfortable table"
  },
  composite_boots = {
    desc = {
      main = {
        text = "A pair of boots with an armored mesh,"
      }
    },
    name = "composite boots"
  },
  composite_gauntlets = {
    desc = {
      main = {
        text = "A pair of gauntlets made out of a composite mesh,"
      }
    },
    name = "composite gauntlets"
  },
  composite_girdle = {
    desc = {
      main = {
        text = "A girdle with straps designed to keep loose clothing out of the way,"
      }
    },
    name = "composite girdle"
  },
  composite_helm = {
    desc = {
      main = {
        text = "A very sturdy helm,"
      }
    },
    name = "composite helm"
  },
  composite_mail = {
    desc = {
      main = {
        text = "A sturdy armor,"
      }
    },
    name = "composite mail"
  },
  composite_ring = {
    desc = {
      main = {
        text = "A ring made out of composite,"
      }
    },
    name = "composite ring"
  },
  computer = {
    desc = {
      main = {
        text = "Asserian computer technology,"
      }
    },
    name = "computer"
  },
  cooler_box = {
    desc = {
      main = {
        text = "A cooler box"
      }
    },
    name = "cooler box",
    unidentified_name = "chilly box"
  },
  corpse = {
    desc = {
      main = {
        text = "A corpse of an unknown creature,"
      }
    },
    name = "corpse"
  },
  counter = {
    name = "counter"
  },
  craft_book_shelf = {
    desc = {
      main = {
        text = "A nicely crafted bookshelf,"
      }
    },
    name = "craft book shelf"
  },
  craft_cupboard = {
    desc = {
      main = {
        text = "A place to store your fine china,"
      }
    },
    name = "craft cupboard"
  },
  craft_rack = {
    desc = {
      main = {
        text = "A nicely crafted piece of furniture,"
      }
    },
    name = "craft rack"
  },
  bottle_of_crim_ale = {
    desc = {
      main = {
        text = "crim is some kind of addictive berry"
      }
    },
    name = "crim ale",
    unidentified_name = "clear liquid"
  },
  crimson_plate = {
    name = "<Crimson Plate>",
    unidentified_name = "red girdle"
  },
  crossbow = {
    desc = {
      main = {
        text = "A ranged weapon designed to shoot straight and pierce armor,"
      }
    },
    name = "crossbow"
  },
  crossroad_sign = {
    desc = {
      main = {
        text = "Oop'"
      }
    },
    name = "crossroad sign"
  },
  crumbled_grave = {
    desc = {
      main = {
        text = "A common style grave that has been destroyed,"
      }
    },
    name = "crumbled grave"
  },
  cupboard = {
    desc = {
      main = {
        text = "A cupboard to store dishes,"
      }
    },
    name = "cupboard"
  },
  curaria = {
    desc = {
      main = {
        text = "A type of herb,"
      }
    },
    name = "curaria"
  },
  cutlassfish = {
    desc = {
      main = {
        text = "A fish that looks something like an Eel,"
      }
    },
    name = "cutlassfish"
  },
  cyber_snack = {
    desc = {
      main = {
        text = "potato chips,"
      }
    },
    name = "cyber snack"
  },
  dagger = {
    desc = {
      main = {
        text = "A small double-edged weapon used for close combat,"
      }
    },
    name = "dagger"
  },
  dal_i_thalion = {
    name = "<Dal-i-thalion>",
    unidentified_name = "light shoes"
  },
  darts_board = {
    desc = {
      main = {
        text = 'A note reads "Please do not play drunk!'
      }
    },
    name = "darts board"
  },
  daruma = {
    name = "daruma"
  },
  dead_fish = {
    desc = {
      main = {
        text = "Hiding one of these is a popular prank in North Tyris..."
      }
    },
    name = "dead fish"
  },
  dead_tree = {
    desc = {
      main = {
        text = "A tree that has died from bad weather,"
      }
    },
    name = "dead tree"
  },
  deck = {
    desc = {
      main = {
        text = "A deck of card'"
      }
    },
    name = "deck"
  },
  decorated_armor = {
    desc = {
      main = {
        text = "A decorative cloth often used as a display for armor stores,"
      }
    },
    name = "decorated armor"
  },
  decorated_cloth = {
    desc = {
      main = {
        text = "A decorative cloth often used as a clothing store display,"
      }
    },
    name = "decorated cloth"
  },
  decorated_gloves = {
    desc = {
      main = {
        text = "Gloves often worn by nobility,"
      }
    },
    name = "decorated gloves"
  },
  decorated_window = {
    name = "decorated window"
  },
  decorative_amulet = {
    desc = {
      main = {
        text = "A cute amulet,"
      }
    },
    name = "decorative amulet"
  },
  decorative_armor = {
    desc = {
      main = {
        text = "A set of decorative armor,"
      }
    },
    name = "decorative armor"
  },
  decorative_ring = {
    desc = {
      main = {
        text = "A pretty ring,"
      }
    },
    name = "decorative ring"
  },
  deed = {
     name = "deed",

     title = function(home_name)
        return (" of %s"):format(home_name)
     end
  },
  deed_of_dungeon = {
    name = "dungeon"
  },
  deed_of_farm = {
    desc = {
      main = {
        text = "A deed for a farm,"
      }
    },
    name = "farm",
  },
  deed_of_heirship = {
    desc = {
      main = {
        text = "A deed of heirship,"
      }
    },
    name = "heirship"
  },
  deed_of_museum = {
    desc = {
      main = {
        text = "A deed for a museum,"
      }
    },
    name = "museum",
  },
  deed_of_ranch = {
    desc = {
      main = {
        text = "A deed for a ranch,"
      }
    },
    name = "ranch",
  },
  deed_of_shop = {
    desc = {
      main = {
        text = "A deed for a shop,"
      }
    },
    name = "shop",
  },
  deed_of_storage_house = {
    desc = {
      main = {
        text = "A deed for a storage house,"
      }
    },
    name = "storage house",
  },
  deer_head = {
    name = "deer head"
  },
  diablo = {
    desc = {
      main = {
        text = "This sword seems to be sentient,"
      }
    },
    name = "<Diablo>",
    unidentified_name = "pure black sword"
  },
  dining_table = {
    desc = {
      main = {
        text = "A hand crafted dining table,"
      }
    },
    name = "dining table"
  },
  disc = {
    desc = {
      main = {
        text = 'A message is written on it saying "Please do not throw,'
      }
    },
    name = "disc"
  },
  disguise_set = {
    desc = {
      main = {
        text = "Disguise kit - with instructions,"
      }
    },
    name = "disguise set"
  },
  dish = {
    name = "dish"
  },
  disorderly_book = {
    desc = {
      main = {
        text = "This is just a mess!"
      }
    },
    name = "disorderly book"
  },
  double_bed = {
    name = "double bed"
  },
  downstairs = {
    name = "downstairs"
  },
  dragon_slayer = {
    desc = {
      main = {
        text = "dev item"
      }
    },
    name = "<Dragon Slayer>",
    unidentified_name = "two-edged great sword"
  },
  dress = {
    desc = {
      main = {
        text = "A lovely dress,"
      }
    },
    name = "dress"
  },
  dresser = {
    desc = {
      main = {
        text = "A common dresser,"
      }
    },
    name = "dresser"
  },
  earth_crystal = {
    name = "earth crystal"
  },
  eastern_bed = {
    desc = {
      main = {
        text = "A useful bed of eastern design,"
      }
    },
    name = "eastern bed"
  },
  eastern_lamp = {
    name = "eastern lamp"
  },
  eastern_partition = {
    name = "eastern partition"
  },
  eastern_window = {
    name = "eastern window"
  },
  edible_wild_plant = {
    desc = {
      main = {
        text = "A type of vegetable,"
      }
    },
    name = "edible wild plant"
  },
  egg = {
    desc = {
      main = {
        text = "This egg would taste better cooked,"
      }
    },
    name = "egg"
  },
  elegant_table = {
    desc = {
      main = {
        text = "Keep your elbows off the table!"
      }
    },
    name = "elegant table"
  },
  elemental_staff = {
    name = "<Elemental Staff>",
    unidentified_name = "elemental staff"
  },
  empty_basket = {
    desc = {
      main = {
        text = "This basket is made out of wicker,"
      }
    },
    name = "empty basket"
  },
  empty_bottle = {
    desc = {
      main = {
        text = "An empty bottle,"
      }
    },
    name = "empty bottle",
    unidentified_name = "empty bottle"
  },
  empty_bowl = {
    desc = {
      main = {
        text = "It's empty,"
      }
    },
    name = "empty bowl"
  },
  energy_cell = {
    desc = {
      main = {
        text = "Do not tamper with lens,"
      }
    },
    name = "energy cell"
  },
  engagement_amulet = {
    desc = {
      main = {
        text = "An amulet that shows one's love,"
      }
    },
    name = "engagement amulet"
  },
  engagement_ring = {
    desc = {
      main = {
        text = "A ring given to show one's intent to marry,"
      }
    },
    name = "engagement ring"
  },
  ether_dagger = {
    desc = {
      main = {
        text = "This dagger seems to be made out of wind,"
      }
    },
    name = "<Ether Dagger>",
    unidentified_name = "dagger surrounded by wind"
  },
  fairy_hat = {
    desc = {
      main = {
        text = "An exotic hat crafted by faeries,"
      }
    },
    name = "fairy hat"
  },
  fancy_lamp = {
    desc = {
      main = {
        text = "A lamp from Asseria,"
      }
    },
    name = "fancy lamp"
  },
  feather = {
    desc = {
      main = {
        text = "A product of magic,"
      }
    },
    name = "feather"
  },
  feather_hat = {
    desc = {
      main = {
        text = "A hat with a feather often worn by nobles,"
      }
    },
    name = "feather hat"
  },
  festival_wreath = {
    name = "festival wreath"
  },
  figurine = {
    desc = {
      main = {
        text = "A statue of a creature,"
      }
    },
    name = "figurine"
  },
  figurine_of_sword = {
    name = "sword"
  },
  figurine_of_warrior = {
    name = "warrior"
  },
  fire_wood = {
    desc = {
      main = {
        text = "Dried wood ready for burning,"
      }
    },
    name = "fire wood"
  },
  fireplace = {
    desc = {
      main = {
        text = "Used to heat a house,"
      }
    },
    name = "fireplace"
  },
  fireproof_blanket = {
    desc = {
      main = {
        text = "Produced to protect the user from hot areas while sleeping but has found more use protecting one's equipment!"
      }
    },
    name = "fireproof blanket"
  },
  fireproof_liquid = {
    desc = {
      main = {
        text = "Use on an item to protect it from fire,"
      }
    },
    name = "fireproof liquid"
  },
  fish = {
    name = ""
  },
  fish_junk = {
    name = ""
  },
  fishing_pole = {
    desc = {
      main = {
        text = "A pole used for bait fishing,"
      }
    },
    name = "fishing pole"
  },
  five_horned_helm = {
    name = "<Five Horned Helm>",
    unidentified_name = "horned helmet"
  },
  flag = {
    desc = {
      main = {
        text = "Comes with its own support so it does not touch the ground,"
      }
    },
    name = "flag"
  },
  flatfish = {
    desc = {
      main = {
        text = "An odd fish that lays on its side,"
      }
    },
    name = "flatfish"
  },
  flower_arch = {
    name = "flower arch"
  },
  flowerbed = {
    desc = {
      main = {
        text = "A beautiful bed of flowers,"
      }
    },
    name = "flowerbed"
  },
  flying_scroll = {
    desc = {
      main = {
        text = "A magical scroll with arcane writing,"
      }
    },
    name = "flying scroll"
  },
  food_maker = {
    desc = {
      main = {
        text = "A tool used to cook food in Asseria,"
      }
    },
    name = "food maker"
  },
  food_processor = {
    desc = {
      main = {
        text = "A miracle of technology!"
      }
    },
    name = "food processor"
  },
  fortune_cookie = {
    desc = {
      main = {
        text = "Will tell you your fortune,"
      }
    },
    name = "fortune cookie"
  },
  fountain = {
    desc = {
      main = {
        text = "Throw a coin in,"
      }
    },
    name = "fountain"
  },
  foxtail_grass = {
    desc = {
      main = {
        text = "Has seeds that can be dangerous to your pets,"
      }
    },
    name = "foxtail grass"
  },
  freezer = {
    desc = {
      main = {
        text = "A freezer to keep your food from spoiling,"
      }
    },
    name = "freezer"
  },
  fried_potato = {
    desc = {
      main = {
        text = "Greasy fries!"
      }
    },
    name = "fried potato"
  },
  frisias_tail = {
    name = "<Frisia's Tail>",
    unidentified_name = "cat's tail"
  },
  fruit_seed = {
    desc = {
      main = {
        text = "A type of seed,"
      }
    },
    name = "fruit seed"
  },
  frying_pan_for_testing = {
    desc = {
      main = {
        text = "dev item"
      }
    },
    name = "for testing"
  },
  fur_carpet = {
    name = "fur carpet"
  },
  furnace = {
    desc = {
      main = {
        text = "A furnace used for smithing,"
      }
    },
    name = "furnace"
  },
  furnance = {
    desc = {
      main = {
        text = "Some furnances are used to heat an area and others are used for metalwork,"
      }
    },
    name = "furnance"
  },
  gaia_hammer = {
    name = "<Gaia Hammer>",
    unidentified_name = "giant hammer"
  },
  garbage = {
    desc = {
      main = {
        text = "Stinky,,,"
      }
    },
    name = "garbage"
  },
  garoks_hammer = {
    name = "Garokk's hammer",
    unidentified_name = "master hammer"
  },
  gazania = {
    desc = {
      main = {
        text = "Decorative flowers,"
      }
    },
    name = "gazania"
  },
  gem_cutter = {
    desc = {
      main = {
        text = "Some magical materials are just that hard to cut!"
      }
    },
    name = "gem cutter"
  },
  gem_seed = {
    desc = {
      main = {
        text = "A type of seed,"
      }
    },
    name = "gem seed"
  },
  gem_stone_of_mani = {
    name = "Mani",
    unidentified_name = "strange jewel"
  },
  gene_machine = {
    name = "gene machine",
    unidentified_name = "freaky machine"
  },
  giant_bed = {
    desc = {
      main = {
        text = "A large and elegant bed,"
      }
    },
    name = "giant bed"
  },
  giant_cactus = {
    desc = {
      main = {
        text = "A decorative cactus,"
      }
    },
    name = "giant cactus"
  },
  giant_foliage_plant = {
    desc = {
      main = {
        text = "A plant used for decoration,"
      }
    },
    name = "giant foliage plant"
  },
  giants_shackle = {
    desc = {
      main = {
        text = "I would not want to be attached to those!"
      }
    },
    name = "giant's shackle",
    unidentified_name = "shakle"
  },
  gift = {
    desc = {
      main = {
        text = "It's hard to open,"
      }
    },
    name = "gift",

    ranks = {
      _10 = "cheap",
      _20 = "so so",
      _30 = "exciting",
      _50 = "expensive",
      _75 = "hot and gorgeous",
      _100 = "crazy epic"
    },
  },
  girdle = {
    desc = {
      main = {
        text = "A type of belt,"
      }
    },
    name = "girdle"
  },
  girls_diary = {
    desc = {
      main = {
        text = "A girl's diary"
      }
    },
    name = "girl's diary"
  },
  globefish = {
    desc = {
      main = {
        text = "A fish that can inflate itself into a round ball,"
      }
    },
    name = "globefish"
  },
  gloves = {
    desc = {
      main = {
        text = "A thick pair of gloves,"
      }
    },
    name = "gloves"
  },
  gloves_of_vesda = {
    name = "<Gloves of Vesda>",
    unidentified_name = "burning gloves"
  },
  gold_bar = {
    name = "gold bar"
  },
  gold_piece = {
    desc = {
      main = {
        text = "Standard currency of North Tyris,"
      }
    },
    name = "gold piece"
  },
  golden_pedestal = {
    desc = {
      main = {
        text = "A pedestal decorated with gold leaf,"
      }
    },
    name = "golden pedestal"
  },
  gorgeous_candlestick = {
    desc = {
      main = {
        text = "An ornamental candlestick,"
      }
    },
    name = "gorgeous candlestick"
  },
  goulds_piano = {
    name = "<Gould's Piano>",
    unidentified_name = "nondescriptive piano"
  },
  grand_piano = {
    desc = {
      main = {
        text = "A beautifully crafted piano,"
      }
    },
    name = "grand piano"
  },
  grape = {
    desc = {
      main = {
        text = "A type of fruit,"
      }
    },
    name = "grape"
  },
  grave_of_ornamented_with_flowers = {
    desc = {
      main = {
        text = "A recent grave with flowers for the departed... The name is still readable,"
      }
    },
    name = "ornamented with flowers"
  },
  green_pea = {
    desc = {
      main = {
        text = "A type of vegetable,"
      }
    },
    name = "green pea"
  },
  green_plant = {
    desc = {
      main = {
        text = "A plant used for decoration,"
      }
    },
    name = "green plant"
  },
  grenade = {
    desc = {
      main = {
        text = "Made by Cyber Dome In"
      }
    },
    name = "grenade"
  },
  guava = {
    desc = {
      main = {
        text = "A type of vegetable,"
      }
    },
    name = "guava"
  },
  guillotine = {
    desc = {
      main = {
        text = "You are sure to get ahead in life with one of these!"
      }
    },
    name = "guillotine"
  },
  halberd = {
    desc = {
      main = {
        text = "A weapon resembling a spear with the head of an axe,"
      }
    },
    name = "halberd"
  },
  hammer = {
    desc = {
      main = {
        text = "A tool that is sometimes adopted as a weapon"
      }
    },
    name = "hammer"
  },
  hand_axe = {
    desc = {
      main = {
        text = "A small single-bladed axe,"
      }
    },
    name = "hand axe"
  },
  handful_of_snow = {
    desc = {
      main = {
        text = "Some snow,"
      }
    },
    name = "snow"
  },
  happy_apple = {
    desc = {
      main = {
        text = "A magical fruit said to come from Ehekatl's garden,"
      }
    },
    name = "happy apple",
    unidentified_name = "mysterious apple"
  },
  happy_bed = {
    desc = {
      main = {
        text = "It is said that you will sleep better in one of these"
      }
    },
    name = "happy bed"
  },
  harmonica = {
    desc = {
      main = {
        text = "A harmonica commonly found in Culdia,"
      }
    },
    name = "harmonica"
  },
  harp = {
    desc = {
      main = {
        text = "An expertly crafted harp favored by the Erea of Vindale,"
      }
    },
    name = "harp"
  },
  healthy_leaf = {
    desc = {
      main = {
        text = "A type of vegetation,"
      }
    },
    name = "healthy leaf"
  },
  heart = {
    name = "heart"
  },
  heavy_boots = {
    desc = {
      main = {
        text = "Boots made for travel,"
      }
    },
    name = "heavy boots"
  },
  heavy_helm = {
    desc = {
      main = {
        text = "A helm designed for good protection,"
      }
    },
    name = "heavy helm"
  },
  heir_trunk = {
    desc = {
      main = {
        text = 'A magical trunk that can connect to "fourth dimensional inheritance storage" for a small fee,'
      }
    },
    name = "heir trunk"
  },
  helm = {
    desc = {
      main = {
        text = "A standard helm,"
      }
    },
    name = "helm"
  },
  herb_seed = {
    desc = {
      main = {
        text = "A type of seed,"
      }
    },
    name = "herb seed"
  },
  hero_cheese = {
    desc = {
      main = {
        text = "A type of cheese eaten by heros"
      }
    },
    name = "hero cheese",
    unidentified_name = "mysterious cheese"
  },
  high_grade_dresser = {
    desc = {
      main = {
        text = "A beautifully crafted dresser,"
      }
    },
    name = "high grade dresser"
  },
  hiryu_to = {
    name = "<Hiryu-To>",
    unidentified_name = "rutilant katana"
  },
  holy_lance = {
    name = "<Holy Lance>",
    unidentified_name = "holy lance"
  },
  holy_well = {
    desc = {
      main = {
        text = "A note reads \"Please do not taint the town's water supply"
      }
    },
    name = "holy well"
  },
  horn = {
    desc = {
      main = {
        text = "A horn imported from Marr Nis Farra,"
      }
    },
    name = "horn"
  },
  house_board = {
    name = "house board"
  },
  imo = {
    desc = {
      main = {
        text = "A type of vegetable,"
      }
    },
    name = "imo"
  },
  inner_tube = {
    desc = {
      main = {
        text = "Such an odd design,,,"
      }
    },
    name = "inner tube"
  },
  iron_maiden = {
    desc = {
      main = {
        text = "A device of pure pain!"
      }
    },
    name = "iron maiden"
  },
  jerky = {
    desc = {
      main = {
        text = "Dried out travel rations,"
      }
    },
    name = "jerky"
  },
  junk = {
    desc = {
      main = {
        text = "One man's junk is another man's treasure!"
      }
    },
    name = "junk"
  },
  junk_stone = {
    desc = {
      main = {
        text = "A useless stone that seems to break apart into sand when touched,"
      }
    },
    name = "junk stone"
  },
  jures_body_pillow = {
    name = "Jure's body pillow"
  },
  jures_gem_stone_of_holy_rain = {
    name = "holy rain",
    unidentified_name = "heavenly jewel"
  },
  kagami_mochi = {
    name = "kagami mochi"
  },
  katana = {
    desc = {
      main = {
        text = "A unique curved sword made through a folding process,"
      }
    },
    name = "katana"
  },
  kill_kill_piano = {
    name = "<Kill Kill Piano>",
    unidentified_name = "heavy piano"
  },
  king_drawer = {
    desc = {
      main = {
        text = "It even has a book shelf!"
      }
    },
    name = "king drawer"
  },
  kings_bed = {
    name = "king's bed"
  },
  kitchen = {
    desc = {
      main = {
        text = "Part of a kitchen set,"
      }
    },
    name = "kitchen"
  },
  kitchen_knife = {
    name = "kitchen knife"
  },
  kitchen_oven = {
    desc = {
      main = {
        text = "The other half of a kitchen set,"
      }
    },
    name = "kitchen oven"
  },
  kite_shield = {
    desc = {
      main = {
        text = "A shield shaped like a kite,"
      }
    },
    name = "kite shield"
  },
  kitty_bank = {
    desc = {
      main = {
        text = "Please don't break me,..., Nyu?"
      }
    },
    name = "kitty bank",
  },
  kiwi = {
    desc = {
      main = {
        text = "A type of fruit,"
      }
    },
    name = "kiwi"
  },
  knight_helm = {
    desc = {
      main = {
        text = "A helm made for knights,"
      }
    },
    name = "knight helm"
  },
  knight_shield = {
    desc = {
      main = {
        text = "A shield given to knights,"
      }
    },
    name = "knight shield"
  },
  kotatsu = {
    name = "kotatsu"
  },
  kumiromi_scythe = {
    name = "<Kumiromi Scythe>",
    unidentified_name = "harvest scythe"
  },
  kumiromis_gem_stone_of_rejuvenation = {
    name = "rejuvenation",
    unidentified_name = "heavenly jewel"
  },
  lantern = {
    desc = {
      main = {
        text = "A light source,"
      }
    },
    name = "lantern"
  },
  large_bookshelf = {
    name = "large bookshelf"
  },
  large_bouquet = {
    desc = {
      main = {
        text = "A beautiful bouquet of flowers,"
      }
    },
    name = "large bouquet"
  },
  large_foliage_plant = {
    desc = {
      main = {
        text = "A decorative plant,"
      }
    },
    name = "large foliage plant"
  },
  large_shield = {
    desc = {
      main = {
        text = "A large circular shield,"
      }
    },
    name = "large shield"
  },
  laser_gun = {
    desc = {
      main = {
        text = "A remnant of ancient times,"
      }
    },
    name = "laser gun"
  },
  leash = {
    desc = {
      main = {
        text = "A leather leash for your pets!"
      }
    },
    name = "leash"
  },
  leccho = {
    desc = {
      main = {
        text = "A type of vegetable,"
      }
    },
    name = "leccho"
  },
  lemon = {
    desc = {
      main = {
        text = "A type of fruit,"
      }
    },
    name = "lemon"
  },
  lettuce = {
    desc = {
      main = {
        text = "A type of vegetable,"
      }
    },
    name = "lettuce"
  },
  license_of_the_void_explorer = {
    desc = {
      main = {
        text = "This will allow you to explore the void that has been found recently in the south-west,"
      }
    },
    name = "the void explorer",
    unidentified_name = "strange paper"
  },
  light_cloak = {
    desc = {
      main = {
        text = "Designed for children and smaller races,"
      }
    },
    name = "light cloak"
  },
  light_gloves = {
    desc = {
      main = {
        text = "A pair of gloves with a soft inner lining,"
      }
    },
    name = "light gloves"
  },
  light_mail = {
    desc = {
      main = {
        text = "A mail made of leather with thin plating,"
      }
    },
    name = "light mail"
  },
  lightsabre = {
    name = "lightsabre"
  },
  little_ball = {
    desc = {
      main = {
        text = "This ball gives you unique powers..."
      }
    },
    name = "little ball",
    unidentified_name = "mechanical ball"
  },
  little_sisters_diary = {
    desc = {
      main = {
        text = "A diary written in with crayon,"
      }
    },
    name = "little sister's diary"
  },
  lockpick = {
    desc = {
      main = {
        text = "A questionable item not intended for public use,"
      }
    },
    name = "lockpick"
  },
  long_bow = {
    desc = {
      main = {
        text = "A bow specifically designed to shoot further than a short bow,"
      }
    },
    name = "long bow"
  },
  long_pillar = {
    desc = {
      main = {
        text = "A pillar designed after one's common in Eludernia,"
      }
    },
    name = "long pillar"
  },
  long_staff = {
    desc = {
      main = {
        text = "A staff used primarily as a weapon and sometimes for magic,"
      }
    },
    name = "long staff"
  },
  long_sword = {
    desc = {
      main = {
        text = "A double-edged sword"
      }
    },
    name = "long sword"
  },
  lot_of_accessories = {
    desc = {
      main = {
        text = "A display case for various gift items,"
      }
    },
    name = "accessories"
  },
  lot_of_alcohols = {
    desc = {
      main = {
        text = "Often found in bars,"
      }
    },
    name = "alcohols"
  },
  lot_of_books = {
    desc = {
      main = {
        text = "A disorderly stacks of books,"
      }
    },
    name = "books"
  },
  lot_of_empty_bottles = {
    desc = {
      main = {
        text = "They still smell of alcohol,"
      }
    },
    name = "empty bottles"
  },
  lot_of_goods = {
    desc = {
      main = {
        text = "A display case for various gift items,"
      }
    },
    name = "goods"
  },
  love_potion = {
    desc = {
      main = {
        text = 'A label reads "To be used only on livestock'
      }
    },
    name = "love potion",
    unidentified_name = "clear liquid"
  },
  lucky_dagger = {
    name = "<Lucky Dagger>",
    unidentified_name = "thin dagger"
  },
  lulwys_gem_stone_of_god_speed = {
    name = "god speed",
    unidentified_name = "heavenly jewel"
  },
  lute = {
    desc = {
      main = {
        text = "A lute is a common musical instrument among bards,"
      }
    },
    name = "lute"
  },
  luxury_bed = {
    desc = {
      main = {
        text = "A bed made in Asseria,"
      }
    },
    name = "luxury bed"
  },
  luxury_cabinet = {
    name = "luxury cabinet"
  },
  luxury_drawer = {
    desc = {
      main = {
        text = "A place to keep your spare clothes,"
      }
    },
    name = "luxury drawer"
  },
  luxury_sofa = {
    name = "luxury sofa"
  },
  machine = {
    desc = {
      main = {
        text = "Asserian technology,"
      }
    },
    name = "machine"
  },
  machine_gun = {
    desc = {
      main = {
        text = "Made by Cyber Dome In"
      }
    },
    name = "machine gun"
  },
  magic_fruit = {
    desc = {
      main = {
        text = "A type of fruit,"
      }
    },
    name = "magic fruit",
    unidentified_name = "rare fruit"
  },
  magic_hat = {
    desc = {
      main = {
        text = "A hat mages often wear,"
      }
    },
    name = "magic hat"
  },
  magical_seed = {
    desc = {
      main = {
        text = "A type of seed,"
      }
    },
    name = "magical seed"
  },
  mana_crystal = {
    name = "mana crystal"
  },
  manboo = {
    name = "manboo"
  },
  map = {
    desc = {
      main = {
        text = "A map of Elona,"
      }
    },
    name = "map"
  },
  mareilon = {
    desc = {
      main = {
        text = "A type of herb,"
      }
    },
    name = "mareilon"
  },
  masters_delivery_chest = {
    name = "master's delivery chest",
    unidentified_name = "delivery chest"
  },
  material_box = {
    desc = {
      main = {
        text = "A box filled with materials,"
      }
    },
    name = "material box"
  },
  material_kit = {
    desc = {
      main = {
        text = "This hard to produce item can change the material of many items!"
      }
    },
    name = "material kit"
  },
  mauser_c96_custom = {
    name = "<Mauser C96 Custom>",
    unidentified_name = "rusted pistol"
  },
  melon = {
    desc = {
      main = {
        text = "A type of vegetable,"
      }
    },
    name = "melon"
  },
  menu_board = {
    desc = {
      main = {
        text = "A menu for a restaurant,"
      }
    },
    name = "menu board"
  },
  messy_cloth = {
    desc = {
      main = {
        text = "A pile of laundry,"
      }
    },
    name = "messy cloth"
  },
  microwave_oven = {
    desc = {
      main = {
        text = "Asserian cooking technolog"
      }
    },
    name = "microwave oven"
  },
  mine = {
    desc = {
      main = {
        text = 'The warning label reads "Do not step on mine when armed'
      }
    },
    name = "mine"
  },
  mini_snow_man = {
    desc = {
      main = {
        text = "A small snowman,"
      }
    },
    name = "mini snow man"
  },
  miniature_tree = {
    name = "miniature tree"
  },
  mochi = {
    name = "mochi"
  },
  modern_chair = {
    desc = {
      main = {
        text = "A chair made in Asseria,"
      }
    },
    name = "modern chair"
  },
  modern_lamp_a = {
    desc = {
      main = {
        text = "An Asserian lamp,"
      }
    },
    name = "modern lamp"
  },
  modern_lamp_b = {
    desc = {
      main = {
        text = "An Asserian lamp,"
      }
    },
    name = "modern lamp"
  },
  modern_rack = {
    name = "modern rack"
  },
  modern_table = {
    desc = {
      main = {
        text = "A table made with Cyber Dome technology,"
      }
    },
    name = "modern table"
  },
  molotov = {
    desc = {
      main = {
        text = 'A label on the bottle states "Light before throwing",'
      }
    },
    name = "molotov"
  },
  money_tree = {
    desc = {
      main = {
        text = "Money grows on this tree,"
      }
    },
    name = "money tree"
  },
  monster_ball = {
    desc = {
      main = {
        text = "A strange item invented by a mad scientist...,"
      }
    },
    name = "monster ball",
  },
  monster_heart = {
    desc = {
      main = {
        text = "Helps to tame monsters,"
      }
    },
    name = "monster heart",
    unidentified_name = "beating heart"
  },
  moon_gate = {
    name = "moon gate"
  },
  moonfish = {
    desc = {
      main = {
        text = "A beautiful fish as pale as the moon,"
      }
    },
    name = "moonfish"
  },
  morgia = {
    desc = {
      main = {
        text = "A type of herb,"
      }
    },
    name = "morgia"
  },
  mournblade = {
    desc = {
      main = {
        text = "An evil black sword surrounded with an aura of dread,"
      }
    },
    name = "<Mournblade>",
    unidentified_name = "chaotic sword"
  },
  music_ticket = {
    desc = {
      main = {
        text = "Tickets given out to promising musicians,"
      }
    },
    name = "music ticket",
    unidentified_name = "some kind of ticket"
  },
  mysterious_map = {
    desc = {
      main = {
        text = "A map with no recognizable landmarks,"
      }
    },
    name = "mysterious map"
  },
  narrow_dining_table = {
    desc = {
      main = {
        text = "A dining room table,"
      }
    },
    name = "narrow dining table"
  },
  neat_bar_table = {
    desc = {
      main = {
        text = "A bar table with racks of alcohol and wine,"
      }
    },
    name = "neat bar table"
  },
  neat_rack = {
    desc = {
      main = {
        text = "A rack with a framed set of glass doors,"
      }
    },
    name = "neat rack"
  },
  neat_shelf = {
    desc = {
      main = {
        text = "A shelf containing books on crafting,"
      }
    },
    name = "neat shelf"
  },
  neck_guard = {
    desc = {
      main = {
        text = "Sometimes the only thing between an enemy sword and your neck,"
      }
    },
    name = "neck guard"
  },
  nerine = {
    desc = {
      main = {
        text = "Decorative flowers,"
      }
    },
    name = "nerine"
  },
  new_years_decoration = {
    name = "new year's decoration"
  },
  new_years_gift = {
    name = "new year's gift"
  },
  nice_window = {
    name = "nice window"
  },
  nuclear_bomb = {
    desc = {
      main = {
        text = "A horrifying weapon of destruction from ancient times,"
      }
    },
    name = "nuclear bomb",
    unidentified_name = "very dangerous bomb"
  },
  old_bookshelf = {
    desc = {
      main = {
        text = "You see large cracks in the wood,"
      }
    },
    name = "old bookshelf"
  },
  old_grave = {
    desc = {
      main = {
        text = "An old norland tomb,"
      }
    },
    name = "old grave"
  },
  old_shelf = {
    desc = {
      main = {
        text = "It looks like it's going to fall apart!"
      }
    },
    name = "old shelf"
  },
  open_pot = {
    desc = {
      main = {
        text = "An uncovered pot,"
      }
    },
    name = "open pot"
  },
  ore_piece = {
    desc = {
      main = {
        text = "Pretty worthless,"
      }
    },
    name = "ore piece"
  },
  oven = {
    desc = {
      main = {
        text = "A dwarven oven,"
      }
    },
    name = "oven"
  },
  pachisuro_machine = {
    desc = {
      main = {
        text = "Similar to a slot machine,"
      }
    },
    name = "pachisuro machine"
  },
  painting_of_landscape = {
    desc = {
      main = {
        text = "A painting of a landscape,"
      }
    },
    name = "landscape"
  },
  painting_of_madam = {
    desc = {
      main = {
        text = "A copy of a painting by a famous Yerles artist,"
      }
    },
    name = "madam"
  },
  painting_of_sunflower = {
    desc = {
      main = {
        text = "A painting of a sunflower,"
      }
    },
    name = "sunflower"
  },
  palmia_pride = {
    name = "<Palmia Pride>",
    unidentified_name = "blue ring"
  },
  pan_flute = {
    desc = {
      main = {
        text = "A type of instrument designed after (but larger than) fairy made flutes,"
      }
    },
    name = "pan flute"
  },
  panty = {
    desc = {
      main = {
        text = "A fitting weapon for those who fight dirty,"
      }
    },
    name = "panty"
  },
  partition = {
    name = "partition"
  },
  pedestal = {
    name = "pedestal"
  },
  pentagram = {
    desc = {
      main = {
        text = "An ancient religious symbol now containing six points!"
      }
    },
    name = "pentagram"
  },
  peridot = {
    desc = {
      main = {
        text = "A gem attached to a neck chain,"
      }
    },
    name = "peridot"
  },
  pick = {
    desc = {
      main = {
        text = "A pick sometimes used for mining,"
      }
    },
    name = "pick"
  },
  pillar = {
    name = "pillar"
  },
  statue_ornamented_with_flowers = {
    desc = {
      main = {
        text = "A pillar designed after one's common in Eludernia,"
      }
    },
    name = "statue ornamented with flowers"
  },
  statue_ornamented_with_plants = {
    desc = {
      main = {
        text = "A pillar designed after one's common in Eludernia,"
      }
    },
    name = "statue ornamented with plants"
  },
  pistol = {
    desc = {
      main = {
        text = "Made by Cyber Dome In"
      }
    },
    name = "pistol"
  },
  plain_bed = {
    desc = {
      main = {
        text = "A bed made in Cyber Dome,"
      }
    },
    name = "plain bed"
  },
  plank_of_carneades = {
    name = "Carneades"
  },
  plate_gauntlets = {
    desc = {
      main = {
        text = "A pair of plated gauntlets,"
      }
    },
    name = "plate gauntlets"
  },
  plate_girdle = {
    desc = {
      main = {
        text = "A reinforced girdle,"
      }
    },
    name = "plate girdle"
  },
  plate_mail = {
    desc = {
      main = {
        text = "An armor forged by dwarves,"
      }
    },
    name = "plate mail"
  },
  platinum_coin = {
    desc = {
      main = {
        text = "Rare coins used by the guilds for currency,"
      }
    },
    name = "platinum coin"
  },
  playback_disc = {
    desc = {
      main = {
        text = "A mysterious disc that seems to play your memories,"
      }
    },
    name = "playback disc"
  },
  poison = {
    desc = {
      main = {
        text = "Warning"
      }
    },
    name = "poison"
  },
  pop_corn = {
    desc = {
      main = {
        text = "Buttery popcorn,"
      }
    },
    name = "pop corn"
  },
  pope_robe = {
    desc = {
      main = {
        text = "A robe from ancient times that has an aura of peace,"
      }
    },
    name = "pope robe"
  },
  portable_cooking_tool = {
    desc = {
      main = {
        text = "A cooking set popular among adventurers,"
      }
    },
    name = "portable cooking tool"
  },
  pot = {
    desc = {
      main = {
        text = "Useful for cooking!"
      }
    },
    name = "pot"
  },
  pot_for_testing = {
    desc = {
      main = {
        text = "dev item"
      }
    },
    name = "for testing"
  },
  potion_of_blindness = {
    desc = {
      main = {
        text = "Sometimes carried by prostitutes,"
      }
    },
    name = "blindness"
  },
  potion_of_confusion = {
    desc = {
      main = {
        text = 'A label says "Please do not drink to identify contents,'
      }
    },
    name = "confusion"
  },
  potion_of_cure_corruption = {
    desc = {
      main = {
        text = 'A label reads "For use in curing harmful diseases only'
      }
    },
    name = "cure corruption"
  },
  potion_of_cure_critical_wound = {
    desc = {
      main = {
        text = "A potion that cures some wounds,"
      }
    },
    name = "cure critical wound"
  },
  potion_of_cure_major_wound = {
    desc = {
      main = {
        text = "A potion that cures some wounds,"
      }
    },
    name = "cure major wound"
  },
  potion_of_cure_minor_wound = {
    desc = {
      main = {
        text = "A potion that cures some wounds,"
      }
    },
    name = "cure minor wound"
  },
  potion_of_cure_mutation = {
    desc = {
      main = {
        text = "Cures mutated genes,"
      }
    },
    name = "cure mutation"
  },
  potion_of_defender = {
    desc = {
      main = {
        text = "A magical potion that can protect you from harm,"
      }
    },
    name = "defender"
  },
  potion_of_descent = {
    desc = {
      main = {
        text = "A strange potion,"
      }
    },
    name = "descent"
  },
  potion_of_evolution = {
    desc = {
      main = {
        text = "You say it's evolution?"
      }
    },
    name = "evolution"
  },
  potion_of_healer = {
    desc = {
      main = {
        text = "A potion that cures some wounds,"
      }
    },
    name = "healer"
  },
  potion_of_healer_eris = {
    desc = {
      main = {
        text = "A potion made by a talented alchemist cures some wounds,"
      }
    },
    name = "healer <Eris>"
  },
  potion_of_healer_jure = {
    desc = {
      main = {
        text = "A potion whose formula was created by Jure herself,"
      }
    },
    name = "healer <Jure>"
  },
  potion_of_healer_odina = {
    desc = {
      main = {
        text = "A potion made by a talented alchemist cures some wounds,"
      }
    },
    name = "healer <Odina>"
  },
  potion_of_healing = {
    desc = {
      main = {
        text = "A potion that cures some wounds,"
      }
    },
    name = "healing"
  },
  potion_of_hero = {
    desc = {
      main = {
        text = 'A label warns "Can give a false sense of confidence,'
      }
    },
    name = "hero"
  },
  potion_of_mutation = {
    desc = {
      main = {
        text = "Mutates your genetic makeup,"
      }
    },
    name = "mutation"
  },
  potion_of_paralysis = {
    desc = {
      main = {
        text = 'A label dictates "For medical use only,'
      }
    },
    name = "paralysis"
  },
  potion_of_potential = {
    desc = {
      main = {
        text = "A valuable potion,"
      }
    },
    name = "potential"
  },
  potion_of_resistance = {
    desc = {
      main = {
        text = "A magical potion that can protect you from harm,"
      }
    },
    name = "resistance"
  },
  potion_of_restore_body = {
    desc = {
      main = {
        text = "A potion that restores physical stats,"
      }
    },
    name = "restore body"
  },
  potion_of_restore_spirit = {
    desc = {
        main = {
          text = "A potion that restores spiritual stats,"
        }
      },
      name = "restore spirit"
    },
    potion_of_salt_solution = {
      desc = {
        main = {
          text = "Some salt,"
        }
      },
      name = "salt solution"
    },
    potion_of_silence = {
      desc = {
        main = {
          text = "...,,"
        }
      },
      name = "silence"
    },
    potion_of_slow = {
      desc = {
        main = {
          text = "An item often carried by thieves,"
        }
      },
      name = "slow"
    },
    potion_of_speed = {
      desc = {
        main = {
          text = "A magical potion that increases your speed temporarily,"
        }
      },
      name = "speed"
    },
    potion_of_troll_blood = {
      desc = {
        main = {
          text = "Tastes worse than it smells,"
        }
      },
      name = "troll blood"
    },
    potion_of_weaken_resistance = {
      desc = {
        main = {
          text = 'A label informs you "can cause harmful side effects,'
        }
      },
      name = "weaken resistance"
    },
    potion_of_weakness = {
      desc = {
        main = {
          text = "A strangely colored potion,"
        }
      },
      name = "weakness"
    },
    presidents_chair = {
      desc = {
        main = {
          text = "A rare chair made for Asseria's elite,"
        }
      },
      name = "president's chair",
      unidentified_name = "glory chair"
    },
    puff_puff_bread = {
      name = "puff puff bread"
    },
    putitoro = {
      desc = {
        main = {
          text = "dev item"
        }
      },
      name = "putitoro"
    },
    qucche = {
      desc = {
        main = {
          text = "A type of fruit,"
        }
      },
      name = "qucche"
    },
    quwapana = {
      desc = {
        main = {
          text = "A type of vegetation,"
        }
      },
      name = "quwapana"
    },
    rabbits_tail = {
      desc = {
        main = {
          text = "A tail said to bring luck,"
        }
      },
      name = "rabbit's tail",
      unidentified_name = "fluffy tail"
    },
    rack_of_accessories = {
      desc = {
        main = {
          text = "Products for display or sale,"
        }
      },
      name = "accessories"
    },
    rack_of_goods = {
      desc = {
        main = {
          text = "Products for display or sale,"
        }
      },
      name = "goods"
    },
    rack_of_potions = {
      desc = {
        main = {
          text = "A potions rack,"
        }
      },
      name = "potions"
    },
    radish = {
      desc = {
        main = {
          text = "A type of vegetable,"
        }
      },
      name = "radish"
    },
    rag_doll = {
      desc = {
        main = {
          text = "A cute stuffed teddy bear,"
        }
      },
      name = "rag doll"
    },
    ragged_table = {
      desc = {
        main = {
          text = "A rustic table,"
        }
      },
      name = "ragged table"
    },
    ragnarok = {
      desc = {
        main = {
          text = "It's said that only a god can use its true power,"
        }
      },
      name = "<Ragnarok>",
      unidentified_name = "sword that ends all"
    },
    rail_gun = {
      name = "<Rail Gun>",
      unidentified_name = "gun of genocide"
    },
    rainbow_fruit = {
      desc = {
        main = {
          text = "A type of fruit,"
        }
      },
      name = "rainbow fruit"
    },
    rankis = {
      name = "<Rankis>",
      unidentified_name = "cursed halberd"
    },
    rare_treasure_ball = {
      desc = {
        main = {
          text = "This contains a rare treasure,"
        }
      },
      name = "rare treasure ball"
    },
    ration = {
      desc = {
        main = {
          text = "A ratio"
        }
      },
      name = "ration"
    },
    raw_noodle = {
      desc = {
        main = {
          text = "This would taste better cooked,"
        }
      },
      name = "raw noodle"
    },
    raw_ore_of_diamond = {
      name = "diamond"
    },
    raw_ore_of_emerald = {
      name = "emerald"
    },
    raw_ore_of_mica = {
      name = "mica"
    },
    raw_ore_of_rubynus = {
      name = "rubynus"
    },
    recipe = {
      name = "recipe"
    },
    recipe_holder = {
      name = "recipe holder"
    },
    red_stall = {
      name = "red stall"
    },
    red_treasure_machine = {
      desc = {
        main = {
          text = "A treasure machine accepting rare coins,"
        }
      },
      name = "red treasure machine"
    },
    register = {
      desc = {
        main = {
          text = "Needed to run a shop,"
        }
      },
      name = "register"
    },
    remains_blood = {
      desc = {
        main = {
          text = "The blood of a creature,"
        }
      },
      name = "blood"
    },
    remains_bone = {
      desc = {
        main = {
          text = "The bones of a creature,"
        }
      },
      name = "bone"
    },
    remains_eye = {
      desc = {
        main = {
          text = "The eye of a creature,"
        }
      },
      name = "eye"
    },
    remains_heart = {
      desc = {
        main = {
          text = "The heart of a creature,"
        }
      },
      name = "heart"
    },
    remains_skin = {
      desc = {
        main = {
          text = "The skin of a creature,"
        }
      },
      name = "skin"
    },
    rice_barrel = {
      desc = {
        main = {
          text = "A barrel for holding rice,"
        }
      },
      name = "rice barrel"
    },
    ring = {
      desc = {
        main = {
          text = "A plain ring,"
        }
      },
      name = "ring"
    },
    ring_mail = {
      desc = {
        main = {
          text = "Leather armor with metal rings sewn on,"
        }
      },
      name = "ring mail"
    },
    ring_of_steel_dragon = {
      name = "<Ring of Steel Dragon>",
      unidentified_name = "steel ring"
    },
    robe = {
      desc = {
        main = {
          text = "A common robe,"
        }
      },
      name = "robe"
    },
    rod_of_acid_ground = {
      desc = {
        main = {
          text = "A mithril rod,"
        }
      },
      name = "acid ground"
    },
    rod_of_alchemy = {
      desc = {
        main = {
          text = "A rod made out of emerald,"
        }
      },
      name = "alchemy"
    },
    rod_of_change_creature = {
      desc = {
        main = {
          text = "A rod made out of ether,"
        }
      },
      name = "change creature"
    },
    rod_of_cure = {
      desc = {
        main = {
          text = "A wooden rod with a cloth grip,"
        }
      },
      name = "cure"
    },
    rod_of_cure_minor_wound = {
      desc = {
        main = {
          text = "A wooden rod with a cloth grip,"
        }
      },
      name = "cure minor wound"
    },
    rod_of_domination = {
      desc = {
        main = {
          text = "A rod made out of rubynus,"
        }
      },
      name = "domination"
    },
    rod_of_fire_bolt = {
      desc = {
        main = {
          text = "A rod made out of metal,"
        }
      },
      name = "fire bolt"
    },
    rod_of_fire_wall = {
      desc = {
        main = {
          text = "A platinum rod,"
        }
      },
      name = "fire wall"
    },
    rod_of_heal = {
      desc = {
        main = {
          text = "A decorated wooden rod with a cloth grip,"
        }
      },
      name = "heal"
    },
    rod_of_healing_hands = {
      desc = {
        main = {
          text = "A silver plated rod,"
        }
      },
      name = "healing hands"
    },
    rod_of_holy_light = {
      desc = {
        main = {
          text = "A gold plated rod,"
        }
      },
      name = "holy light"
    },
    rod_of_ice_bolt = {
      desc = {
        main = {
          text = "A rod made out of wood,"
        }
      },
      name = "ice bolt"
    },
    rod_of_identify = {
      desc = {
        main = {
          text = "A wooden rod,"
        }
      },
      name = "identify"
    },
    rod_of_lightning_bolt = {
      desc = {
        main = {
          text = "A rod made out of bronze,"
        }
      },
      name = "lightning bolt"
    },
    rod_of_magic_mapping = {
      desc = {
        main = {
          text = "A rod plated with adamantium,"
        }
      },
      name = "magic mapping"
    },
    rod_of_magic_missile = {
      desc = {
        main = {
          text = "A rod made out of iron,"
        }
      },
      name = "magic missile"
    },
    rod_of_make_door = {
      desc = {
        main = {
          text = "A pearl tipped rod,"
        }
      },
      name = "make door"
    },
    rod_of_mana = {
      desc = {
        main = {
          text = "A rod wrapped in dawn cloth,"
        }
      },
      name = "mana"
    },
    rod_of_silence = {
      desc = {
        main = {
          text = "A mica tipped rod,"
        }
      },
      name = "silence"
    },
    rod_of_slow = {
      desc = {
        main = {
          text = "A rod with a silver tip,"
        }
      },
      name = "slow"
    },
    rod_of_speed = {
      desc = {
        main = {
          text = "A rod made out of glass,"
        }
      },
      name = "speed"
    },
    rod_of_summon_monsters = {
      desc = {
        main = {
          text = "A heavy rod,"
        }
      },
      name = "summon monsters"
    },
    rod_of_teleportation = {
      desc = {
        main = {
          text = "A rod made out of steel,"
        }
      },
      name = "teleportation"
    },
    rod_of_uncurse = {
      desc = {
        main = {
          text = "A rod wrapped in spirit cloth,"
        }
      },
      name = "uncurse"
    },
    rod_of_wall_creation = {
      desc = {
        main = {
          text = "A wall made out of obsidian,"
        }
      },
      name = "wall creation"
    },
    rod_of_web = {
      desc = {
        main = {
          text = "A rod wrapped in silk,"
        }
      },
      name = "web"
    },
    rod_of_wishing = {
      desc = {
        main = {
          text = "A dragon scale rod with a diamond tip,"
        }
      },
      name = "wishing"
    },
    rose = {
      desc = {
        main = {
          text = "A symbol of love,"
        }
      },
      name = "rose"
    },
    round_chair = {
      desc = {
        main = {
          text = "A chair for a small child or a fairy,"
        }
      },
      name = "round chair"
    },
    round_shield = {
      desc = {
        main = {
          text = "Used to block hostile weapons,"
        }
      },
      name = "round shield"
    },
    rune = {
      desc = {
        main = {
          text = "A magical rune that warps reality,"
        }
      },
      name = "rune"
    },
    sack_of_flour = {
      desc = {
        main = {
          text = "Flour used for baking,"
        }
      },
      name = "flour"
    },
    sack_of_sugar = {
      name = "sugar"
    },
    sacred_altar = {
      desc = {
        main = {
          text = "An altar with a holy aura,"
        }
      },
      name = "sacred altar"
    },
    safe = {
      desc = {
        main = {
          text = "It might not be safe to carry..."
        }
      },
      name = "safe"
    },
    sage = {
      desc = {
        main = {
          text = "An herb used to season food,"
        }
      },
      name = "sage"
    },
    sages_helm = {
      name = "<Sage's Helm>",
      unidentified_name = "shining helm"
    },
    salary_chest = {
      desc = {
        main = {
          text = "A salary chest for freelance employment,"
        }
      },
      name = "salary chest"
    },
    salmon = {
      desc = {
        main = {
          text = "A fish with unique spawning habits,"
        }
      },
      name = "salmon"
    },
    sand_bag = {
      desc = {
        main = {
          text = "Attach your own punching bag!"
        }
      },
      name = "sand bag"
    },
    sandborer = {
      name = "sandborer"
    },
    sardine = {
      desc = {
        main = {
          text = "A small oily fish,"
        }
      },
      name = "sardine"
    },
    scarecrow = {
      desc = {
        main = {
          text = "Used by farmers to keep birds away from their crops,"
        }
      },
      name = "scarecrow"
    },
    schrodingers_cat = {
      name = "Schrodinger's cat"
    },
    scimitar = {
      desc = {
        main = {
          text = "A curved sword,"
        }
      },
      name = "scimitar"
    },
    scroll_of_ally = {
      desc = {
        main = {
          text = "A magical scroll with arcane writing,"
        }
      },
      name = "ally"
    },
    scroll_of_change_material = {
      desc = {
        main = {
          text = "A magical scroll with arcane writing,"
        }
      },
      name = "change material"
    },
    scroll_of_contingency = {
      desc = {
        main = {
          text = "A magical scroll with arcane writing,"
        }
      },
      name = "contingency"
    },
    scroll_of_curse = {
      desc = {
        main = {
          text = "A magical scroll with arcane writing,"
        }
      },
      name = "curse"
    },
    scroll_of_detect_objects = {
      desc = {
        main = {
          text = "A magical scroll with arcane writing,"
        }
      },
      name = "detect objects"
    },
    scroll_of_enchant_armor = {
      desc = {
        main = {
          text = "A magical scroll with arcane writing,"
        }
      },
      name = "enchant armor"
    },
    scroll_of_enchant_weapon = {
      desc = {
        main = {
          text = "A magical scroll with arcane writing,"
        }
      },
      name = "enchant weapon"
    },
    scroll_of_escape = {
      desc = {
        main = {
          text = "A magical scroll with arcane writing,"
        }
      },
      name = "escape"
    },
    scroll_of_faith = {
      desc = {
        main = {
          text = "A magical scroll with arcane writing,"
        }
      },
      name = "faith"
    },
    scroll_of_gain_attribute = {
      desc = {
        main = {
          text = "A magical scroll with arcane writing,"
        }
      },
      name = "gain attribute"
    },
    scroll_of_gain_material = {
      desc = {
        main = {
          text = "A magical scroll with arcane writing,"
        }
      },
      name = "gain material"
    },
    scroll_of_greater_enchant_armor = {
      desc = {
        main = {
          text = "A magical scroll with arcane writing,"
        }
      },
      name = "greater enchant armor"
    },
    scroll_of_greater_enchant_weapon = {
      desc = {
        main = {
          text = "A magical scroll with arcane writing,"
        }
      },
      name = "greater enchant weapon"
    },
    scroll_of_greater_identify = {
      desc = {
        main = {
          text = "A magical scroll with arcane writing,"
        }
      },
      name = "greater identify"
    },
    scroll_of_growth = {
      desc = {
        main = {
          text = "A magical scroll with arcane writing,"
        }
      },
      name = "growth"
    },
    scroll_of_healing_rain = {
      desc = {
        main = {
          text = "A magical scroll with arcane writing,"
        }
      },
      name = "healing rain"
    },
    scroll_of_holy_light = {
      desc = {
        main = {
          text = "A magical scroll with arcane writing,"
        }
      },
      name = "holy light"
    },
    scroll_of_holy_rain = {
      desc = {
        main = {
          text = "A magical scroll with arcane writing,"
        }
      },
      name = "holy rain"
    },
    scroll_of_holy_veil = {
      desc = {
        main = {
          text = "A magical scroll with arcane writing,"
        }
      },
      name = "holy veil"
    },
    scroll_of_identify = {
      desc = {
        main = {
          text = "A magical scroll with arcane writing,"
        }
      },
      name = "identify"
    },
    scroll_of_incognito = {
      desc = {
        main = {
          text = "A magical scroll with arcane writing,"
        }
      },
      name = "incognito"
    },
    scroll_of_inferior_material = {
      desc = {
        main = {
          text = "A magical scroll with arcane writing,"
        }
      },
      name = "inferior material"
    },
    scroll_of_knowledge = {
      desc = {
        main = {
          text = "A magical scroll with arcane writing,"
        }
      },
      name = "knowledge"
    },
    scroll_of_magical_map = {
      desc = {
        main = {
          text = "A magical scroll with arcane writing,"
        }
      },
      name = "magical map"
    },
    scroll_of_mana = {
      desc = {
        main = {
          text = "A magical scroll with arcane writing,"
        }
      },
      name = "mana"
    },
    scroll_of_minor_teleportation = {
      desc = {
        main = {
          text = "A magical scroll with arcane writing,"
        }
      },
      name = "minor teleportation"
    },
    scroll_of_name = {
      desc = {
        main = {
          text = "A magical scroll with arcane writing,"
        }
      },
      name = "name"
    },
    scroll_of_oracle = {
      desc = {
        main = {
          text = "A magical scroll with arcane writing,"
        }
      },
      name = "oracle"
    },
    scroll_of_recharge = {
      desc = {
        main = {
          text = "A magical scroll with arcane writing,"
        }
      },
      name = "recharge"
    },
    scroll_of_return = {
      desc = {
        main = {
          text = "A magical scroll with arcane writing,"
        }
      },
      name = "return"
    },
    scroll_of_superior_material = {
      desc = {
        main = {
          text = "A magical scroll with arcane writing,"
        }
      },
      name = "superior material"
    },
    scroll_of_teleportation = {
      desc = {
        main = {
          text = "A magical scroll with arcane writing,"
        }
      },
      name = "teleportation"
    },
    scroll_of_uncurse = {
      desc = {
        main = {
          text = "A magical scroll with arcane writing,"
        }
      },
      name = "uncurse"
    },
    scroll_of_vanish_curse = {
      desc = {
        main = {
          text = "A magical scroll with arcane writing,"
        }
      },
      name = "vanish curse"
    },
    scroll_of_wonder = {
      desc = {
        main = {
          text = "A magical scroll with arcane writing,"
        }
      },
      name = "wonder"
    },
    scythe = {
      desc = {
        main = {
          text = "A farmer's tool that has largely replaced sickles,"
        }
      },
      name = "scythe"
    },
    scythe_of_void = {
      desc = {
        main = {
          text = "This weapon's very existence defies all logic,"
        }
      },
      name = "<Scythe of Void>",
      unidentified_name = "scythe that sings death"
    },
    seabream = {
      name = "seabream"
    },
    secret_experience_of_kumiromi = {
      name = "Kumiromi",
      unidentified_name = "strange jewel"
    },
    secret_experience_of_lomias = {
      name = "Lomias",
      unidentified_name = "strange jewel"
    },
    secret_treasure = {
      desc = {
        main = {
          text = "This strange object seems to slightly shift its shape,"
        }
      },
      name = "secret treasure",
      unidentified_name = "mysterious jewel",

      of = {
         elona = {
            perm_good = " of saint",
            perm_evil = " of wicked",
            god_luck = " of Ehekatl",
            god_earth = " of Opatos",
            god_element = " of Itzpalt",
            god_heal = " of Jure",
         }
      }
    },
    server = {
      desc = {
        main = {
          text = "Asserian computer technology,"
        }
      },
      name = "server"
    },
    seven_league_boots = {
      desc = {
        main = {
          text = "Rare boots magically enhanced to allow faster travel,"
        }
      },
      name = "seven league boots"
    },
    sewing_kit = {
      desc = {
        main = {
          text = "An sewing kit intended for clothing repair,"
        }
      },
      name = "sewing kit"
    },
    shelter = {
      desc = {
        main = {
          text = "This kit can be used to build a shelter that protects you from the weather!"
        }
      },
      name = "shelter"
    },
    shenas_panty = {
      name = "<Shena's Panty>",
      unidentified_name = "scentful panty"
    },
    shield = {
      desc = {
        main = {
          text = "A shield with a crest,"
        }
      },
      name = "shield"
    },
    shield_of_thorn = {
      name = "<Shield of Thorn>",
      unidentified_name = "tingling shield"
    },
    shit = {
      desc = {
        main = {
          text = "Stinky...,,"
        }
      },
      name = "shit"
    },
    shoes = {
      desc = {
        main = {
          text = "A pair of shoes,"
        }
      },
      name = "shoes"
    },
    shop_strongbox = {
      desc = {
        main = {
          text = "A chest containing your shop's profit"
        }
      },
      name = "shop strongbox"
    },
    shopkeepers_trunk = {
      name = "shopkeeper's trunk",

      temporal = "(Temporal)"
    },
    short_bow = {
      desc = {
        main = {
          text = "A standard easy to use bow,"
        }
      },
      name = "short bow"
    },
    shot_gun = {
      desc = {
        main = {
          text = "Made by Cyber Dome In"
        }
      },
      name = "shot gun"
    },
    show_case_of_breads = {
      desc = {
        main = {
          text = "A shelf of bread for display,"
        }
      },
      name = "breads"
    },
    shrine_gate = {
      name = "shrine gate",
      unidentified_name = "foreign gate"
    },
    shuriken = {
      desc = {
        main = {
          text = "A Hira-Shuriken,"
        }
      },
      name = "shuriken"
    },
    sickle = {
      desc = {
        main = {
          text = "A farmer's tool for harvesting crops,"
        }
      },
      name = "sickle"
    },
    sign = {
      desc = {
        main = {
          text = "Sig"
        }
      },
      name = "sign"
    },
    silk_cloth = {
      desc = {
        main = {
          text = "Silk cloth woven by faeries,"
        }
      },
      name = "silk cloth"
    },
    simple_dresser = {
      desc = {
        main = {
          text = "A dresser often made for children,"
        }
      },
      name = "simple dresser"
    },
    simple_rack = {
      name = "simple rack"
    },
    simple_shelf = {
      desc = {
        main = {
          text = "A shelf for your dining room,"
        }
      },
      name = "simple shelf"
    },
    sink = {
      desc = {
        main = {
          text = "Has its own water filtration system,"
        }
      },
      name = "sink"
    },
    sisters_love_fueled_lunch = {
      desc = {
        main = {
          text = "It even has cookies!"
        }
      },
      name = "sister's love fueled lunch"
    },
    skeleton = {
      desc = {
        main = {
          text = "Bones of an unknown creature,"
        }
      },
      name = "skeleton"
    },
    skeleton_key = {
      desc = {
        main = {
          text = "An item stolen from a legendary locksmith,"
        }
      },
      name = "skeleton key",
      unidentified_name = "white key"
    },
    skull_bow = {
      name = "skull bow"
    },
    sleeping_bag = {
      desc = {
        main = {
          text = "Useful for camping and sleeping in moldy dungeons!"
        }
      },
      name = "sleeping bag"
    },
    sleeping_drug = {
      desc = {
        main = {
          text = 'A label says "Do not inhale,'
        }
      },
      name = "sleeping drug"
    },
    slot_machine = {
      desc = {
        main = {
          text = "Do you want to try it?"
        }
      },
      name = "slot machine"
    },
    small_foliage_plant = {
      desc = {
        main = {
          text = "Plants in a pot,"
        }
      },
      name = "small foliage plant"
    },
    small_gamble_chest = {
      desc = {
        main = {
          text = "Popular among gamblers,"
        }
      },
      name = "small gamble chest",

      level = function(lv)
         return (" Level %s"):format(lv)
      end
    },
    small_medal = {
      desc = {
        main = {
          text = "Dwarven currency rarely found outside of their homeland,"
        }
      },
      name = "small medal",
      unidentified_name = "silver coin"
    },
    small_shield = {
      desc = {
        main = {
          text = "A small reinforced shield,"
        }
      },
      name = "small shield"
    },
    snow_barrel = {
      desc = {
        main = {
          text = "A barrel with snow on it,"
        }
      },
      name = "snow barrel"
    },
    snow_man = {
      desc = {
        main = {
          text = "A snow man,"
        }
      },
      name = "snow man"
    },
    snow_scarecrow = {
      desc = {
        main = {
          text = "Is there a need for one in the snow?"
        }
      },
      name = "snow scarecrow"
    },
    sofa = {
      desc = {
        main = {
          text = "A finely crafted sofa,"
        }
      },
      name = "sofa"
    },
    soft_bed = {
      desc = {
        main = {
          text = "A soft bed meant for a child,"
        }
      },
      name = "soft bed"
    },
    solemn_tomb = {
      desc = {
        main = {
          text = "A tome of a rich or heroic figure,"
        }
      },
      name = "solemn tomb"
    },
    spear = {
      desc = {
        main = {
          text = "A polearm with a sharp point,"
        }
      },
      name = "spear"
    },
    special_steamed_meat_bun = {
      name = "special steamed meat bun"
    },
    speed_ring = {
      desc = {
        main = {
          text = "A rare magical ring that increases your speed,"
        }
      },
      name = "speed ring"
    },
    spellbook_of_4_dimensional_pocket = {
      desc = {
        main = {
          text = "A tome on alternate dimension"
        }
      },
      name = "4 dimensional pocket"
    },
    spellbook_of_acid_ground = {
      desc = {
        main = {
          text = "The pages of this tome are tinted green,"
        }
      },
      name = "acid ground"
    },
    spellbook_of_chaos_ball = {
      desc = {
        main = {
          text = "You find this tome confusing,"
        }
      },
      name = "chaos ball"
    },
    spellbook_of_chaos_eye = {
      desc = {
        main = {
          text = "This tome makes no sense,"
        }
      },
      name = "chaos eye"
    },
    spellbook_of_contingency = {
      desc = {
        main = {
          text = "An ancient tome,"
        }
      },
      name = "contingency"
    },
    spellbook_of_cure_critical_wound = {
      desc = {
        main = {
          text = "This tome has been carefully preserved,"
        }
      },
      name = "cure critical wound"
    },
    spellbook_of_cure_eris = {
      desc = {
        main = {
          text = "A tome of arcane healing,"
        }
      },
      name = "cure <Eris>"
    },
    spellbook_of_cure_jure = {
      desc = {
        main = {
          text = "A tome of words written by Jure herself,"
        }
      },
      name = "cure <Jure>"
    },
    spellbook_of_cure_minor_wound = {
      desc = {
        main = {
          text = "This tome has carefully been taken care of,"
        }
      },
      name = "cure minor wound"
    },
    spellbook_of_darkness_arrow = {
      desc = {
        main = {
          text = "This tome seems to carefully bend light,"
        }
      },
      name = "darkness arrow"
    },
    spellbook_of_darkness_beam = {
      desc = {
        main = {
          text = "This tome seems to bend light,"
        }
      },
      name = "darkness beam"
    },
    spellbook_of_detect_objects = {
      desc = {
        main = {
          text = "Makes you feel like a treasure hunter,"
        }
      },
      name = "detect objects"
    },
    spellbook_of_domination = {
      desc = {
        main = {
          text = "A tome that seems to break your will,"
        }
      },
      name = "domination"
    },
    spellbook_of_elemental_scar = {
      desc = {
        main = {
          text = "A weathered and warped tome,"
        }
      },
      name = "elemental scar"
    },
    spellbook_of_fire_ball = {
      desc = {
        main = {
          text = "This tome is hot,"
        }
      },
      name = "fire ball"
    },
    spellbook_of_fire_bolt = {
      desc = {
        main = {
          text = "The tome is strangely warm,"
        }
      },
      name = "fire bolt"
    },
    spellbook_of_fire_wall = {
      desc = {
        main = {
          text = "This tome is warm,"
        }
      },
      name = "fire wall"
    },
    spellbook_of_harvest = {
      desc = {
        main = {
          text = "A tome on secret form's of magical alchemy,"
        }
      },
      name = "harvest"
    },
    spellbook_of_healing_hands = {
      desc = {
        main = {
          text = "A handy tome,"
        }
      },
      name = "healing hands"
    },
    spellbook_of_healing_rain = {
      desc = {
        main = {
          text = "A slightly damp tome,"
        }
      },
      name = "healing rain"
    },
    spellbook_of_hero = {
      desc = {
        main = {
          text = "Strangely reading this book gives you a slight adrenalin rush,"
        }
      },
      name = "hero"
    },
    spellbook_of_holy_light = {
      desc = {
        main = {
          text = "A tome with a calming glow,"
        }
      },
      name = "holy light"
    },
    spellbook_of_holy_rain = {
      desc = {
        main = {
          text = "A slightly damp tome,"
        }
      },
      name = "holy rain"
    },
    spellbook_of_holy_shield = {
      desc = {
        main = {
          text = "A yellowed tome with a holy aura,"
        }
      },
      name = "holy shield"
    },
    spellbook_of_holy_veil = {
      desc = {
        main = {
          text = "A tome on religious spells,"
        }
      },
      name = "holy veil"
    },
    spellbook_of_ice_ball = {
      desc = {
        main = {
          text = "This tome is cold,"
        }
      },
      name = "ice ball"
    },
    spellbook_of_ice_bolt = {
      desc = {
        main = {
          text = "The tome is cool to the touch,"
        }
      },
      name = "ice bolt"
    },
    spellbook_of_identify = {
      desc = {
        main = {
          text = "A yellowed tome that contains the secret of any item,"
        }
      },
      name = "identify"
    },
    spellbook_of_illusion_beam = {
      desc = {
        main = {
          text = "A tome that hurts your eyes when read,"
        }
      },
      name = "illusion beam"
    },
    spellbook_of_incognito = {
      desc = {
        main = {
          text = "A tome whose words often mean another thing,"
        }
      },
      name = "incognito"
    },
    spellbook_of_knowledge = {
      desc = {
        main = {
          text = "An insightful tome,"
        }
      },
      name = "knowledge"
    },
    spellbook_of_lightning_bolt = {
      desc = {
        main = {
          text = "This tome lets off a static discharge,"
        }
      },
      name = "lightning bolt"
    },
    spellbook_of_magic_arrow = {
      desc = {
        main = {
          text = "A tome that teaches how to use magical energy,"
        }
      },
      name = "magic arrow"
    },
    spellbook_of_magic_ball = {
      desc = {
        main = {
          text = "A tome that teaches how to manipulate magic energy by sheer force of will, "
        }
      },
      name = "magic ball"
    },
    spellbook_of_magic_laser = {
      desc = {
        main = {
          text = "A tome that teaches how to focus magic energy"
        }
      },
      name = "magic laser"
    },
    spellbook_of_magic_mapping = {
      desc = {
        main = {
          text = "A tome that makes you aware of your surroundings,"
        }
      },
      name = "magic mapping"
    },
    spellbook_of_make_door = {
      desc = {
        main = {
          text = "This tome is yellowed and warped,"
        }
      },
      name = "make door"
    },
    spellbook_of_minor_teleportation = {
      desc = {
        main = {
          text = "The words in this tome do not seem to stay in one place,"
        }
      },
      name = "minor teleportation"
    },
    spellbook_of_mutation = {
      desc = {
        main = {
          text = "This tome appears to have legs,"
        }
      },
      name = "mutation"
    },
    spellbook_of_nerve_eye = {
      desc = {
        main = {
          text = "Reading this tome makes your eye twitch,"
        }
      },
      name = "nerve eye"
    },
    spellbook_of_nether_eye = {
      desc = {
        main = {
          text = "You feel like the world of the dead has its eye on you,"
        }
      },
      name = "nether eye"
    },
    spellbook_of_nightmare = {
      desc = {
        main = {
          text = "A tome that has an aura of dread,"
        }
      },
      name = "nightmare"
    },
    spellbook_of_oracle = {
      desc = {
        main = {
          text = "A tome of prophecys,"
        }
      },
      name = "oracle"
    },
    spellbook_of_regeneration = {
      desc = {
        main = {
          text = "A tome that looks like new,"
        }
      },
      name = "regeneration"
    },
    spellbook_of_resistance = {
      desc = {
        main = {
          text = "A tome that seems undamaged by the weather,"
        }
      },
      name = "resistance"
    },
    spellbook_of_return = {
      desc = {
        main = {
          text = "A tome that allows a person to return to specific places containing a rift,"
        }
      },
      name = "return"
    },
    spellbook_of_silence = {
      desc = {
        main = {
          text = "A tome whose words are impossible to pronounce for most creatures,"
        }
      },
      name = "silence"
    },
    spellbook_of_slow = {
      desc = {
        main = {
          text = "A yellowed tome that's pages seem to move slowly,"
        }
      },
      name = "slow"
    },
    spellbook_of_sound_ball = {
      desc = {
        main = {
          text = "You can swear you hear a buzzing sound from this tome,"
        }
      },
      name = "sound ball"
    },
    spellbook_of_speed = {
      desc = {
        main = {
          text = "A hastily written tome,"
        }
      },
      name = "speed"
    },
    spellbook_of_summon_monsters = {
      desc = {
        main = {
          text = "You can swear you hear growling,"
        }
      },
      name = "summon monsters"
    },
    spellbook_of_teleportation = {
      desc = {
        main = {
          text = "A yellowed tome whose words seem to move on their own/"
        }
      },
      name = "teleportation"
    },
    spellbook_of_uncurse = {
      desc = {
        main = {
          text = "A tome often carried by priests,"
        }
      },
      name = "uncurse"
    },
    spellbook_of_wall_creation = {
      desc = {
        main = {
          text = "This tome seems to be heavier than it is,"
        }
      },
      name = "wall creation"
    },
    spellbook_of_weakness = {
      desc = {
        main = {
          text = "A battered tome,"
        }
      },
      name = "weakness"
    },
    spellbook_of_web = {
      desc = {
        main = {
          text = "You can swear you see spiders crawling over this tome out of the corner of your eye,"
        }
      },
      name = "web"
    },
    spellbook_of_wishing = {
      desc = {
        main = {
          text = "This tome is ancient and has a crushing aura of power,"
        }
      },
      name = "wishing"
    },
    spenseweed = {
      desc = {
        main = {
          text = "A type of herb,"
        }
      },
      name = "spenseweed"
    },
    square_chair = {
      desc = {
        main = {
          text = "An everyday chair,"
        }
      },
      name = "square chair"
    },
    square_window = {
      name = "square window"
    },
    stack_of_dishes = {
      desc = {
        main = {
          text = "A set of decorative dishes,"
        }
      },
      name = "dish"
    },
    staff = {
      desc = {
        main = {
          text = "A staff used in a variety of ways,"
        }
      },
      name = "staff"
    },
    staff_of_insanity = {
      name = "<Staff of Insanity>",
      unidentified_name = "shivering staff"
    },
    stained_glass_window = {
      desc = {
        main = {
          text = "A expensive stained glass window often used to decorate chapels,"
        }
      },
      name = "stained glass window"
    },
    statue_of_armor = {
      desc = {
        main = {
          text = "A shelf or armor,"
        }
      },
      name = "armor"
    },
    statue_of_cat = {
      desc = {
        main = {
          text = "A painting of a cat,"
        }
      },
      name = "cat"
    },
    statue_of_creator = {
      name = "Creator",
      unidentified_name = "fishy statue"
    },
    statue_of_cross = {
      desc = {
        main = {
          text = "An ancient symbol,"
        }
      },
      name = "cross"
    },
    statue_of_ehekatl = {
      name = "Ehekatl",
      unidentified_name = "celestial statue"
    },
    statue_of_holy_cross = {
      desc = {
        main = {
          text = "A holy symbol from ancient times,"
        }
      },
      name = "holy cross"
    },
    statue_of_jure = {
      name = "Jure",
      unidentified_name = "celestial statue"
    },
    statue_of_kumiromi = {
      name = "Kumiromi",
      unidentified_name = "celestial statue"
    },
    statue_of_lulwy = {
      desc = {
        main = {
          text = "A beautiful statue of a winged goddess,"
        }
      },
      name = "Lulwy",
      unidentified_name = "celestial statue"
    },
    statue_of_mani = {
      name = "Mani",
      unidentified_name = "celestial statue"
    },
    golden_statue = {
      desc = {
        main = {
          text = "A statue common in Asseria style casinos,"
        }
      },
      name = "golden statue"
    },
    statue_of_opatos = {
      desc = {
        main = {
          text = "You feel the ground shake slightly at this statue,"
        }
      },
      name = "Opatos",
      unidentified_name = "celestial statue"
    },
    stethoscope = {
      desc = {
        main = {
          text = "A real one can be used to check your health,"
        }
      },
      name = "stethoscope"
    },
    stick_bread = {
      desc = {
        main = {
          text = "A loaf of baked bread,"
        }
      },
      name = "stick bread"
    },
    stomafillia = {
      desc = {
        main = {
          text = "A type of herb,"
        }
      },
      name = "stomafillia"
    },
    stone = {
      desc = {
        main = {
          text = "It's just a stone"
        }
      },
      name = "stone"
    },
    storage = {
      desc = {
        main = {
          text = "You do not know how to open it,"
        }
      },
      name = "storage"
    },
    stove = {
      desc = {
        main = {
          text = "A stove useful for cooking food,"
        }
      },
      name = "stove"
    },
    stradivarius = {
      desc = {
        main = {
          text = "A legendary instrument,"
        }
      },
      name = "<Stradivarius>",
      unidentified_name = "elegant string"
    },
    straw = {
      desc = {
        main = {
          text = "This can be useful to the right person,"
        }
      },
      name = "straw"
    },
    strawberry = {
      desc = {
        main = {
          text = "A type of fruit,"
        }
      },
      name = "strawberry"
    },
    street_lamp = {
      desc = {
        main = {
          text = "A lamp that decorates the streets of Asseria,"
        }
      },
      name = "street lamp"
    },
    stump = {
      desc = {
        main = {
          text = "The remains of a tree that has been cut out of the ground and is used as a seat,"
        }
      },
      name = "stump"
    },
    suitcase = {
      desc = {
        main = {
          text = "A suitcase lost by a traveler, "
        }
      },
      name = "suitcase"
    },
    summoning_crystal = {
      name = "summoning crystal",
      unidentified_name = "beautiful stone"
    },
    sun_crystal = {
      name = "sun crystal"
    },
    sweet_potato = {
      desc = {
        main = {
          text = "A type of vegetable,"
        }
      },
      name = "sweet potato"
    },
    table = {
      desc = {
        main = {
          text = "A common table,"
        }
      },
      name = "table"
    },
    talisman = {
      desc = {
        main = {
          text = "A talisman said to ward off evil,"
        }
      },
      name = "talisman"
    },
    tamers_whip = {
      name = "tamer's whip"
    },
    orange = {
      desc = {
        main = {
          text = "A type of fruit,"
        }
      },
      name = "tangerine"
    },
    tax_masters_tax_box = {
      desc = {
        main = {
          text = "Pay your taxes here,"
        }
      },
      name = "tax master's tax box",
      unidentified_name = "tax box"
    },
    textbook = {
      desc = {
        main = {
          text = "A textbook used to study a trade,"
        }
      },
      name = "textbook",
      unidentified_name = "book"
    },
    thick_gauntlets = {
      desc = {
        main = {
          text = "A pair of gauntlets made mostly of thick leather,"
        }
      },
      name = "thick gauntlets"
    },
    throne = {
      desc = {
        main = {
          text = "Built for royalty,"
        }
      },
      name = "throne"
    },
    tight_boots = {
      desc = {
        main = {
          text = "A tight fitting pair of boots,"
        }
      },
      name = "tight boots"
    },
    tight_rope = {
      desc = {
        main = {
          text = "You start to practice your knots on this piece of rope,"
        }
      },
      name = "tight rope"
    },
    toilet = {
      desc = {
        main = {
          text = "You can drink from it but I don't recommend it,,,"
        }
      },
      name = "toilet"
    },
    token_of_friendship = {
      desc = {
        main = {
          text = "A token given only to friends,"
        }
      },
      name = "friendship",
      unidentified_name = "crumbling paper"
    },
    tomato = {
      name = "tomato"
    },
    tombstone = {
      desc = {
        main = {
          text = "Please do not kick the tombstones,"
        }
      },
      name = "tombstone"
    },
    torch = {
      desc = {
        main = {
          text = "This enchanted torch will never burn out,"
        }
      },
      name = "torch"
    },
    towel = {
      desc = {
        main = {
          text = "Soft fluffy towels!"
        }
      },
      name = "towel"
    },
    tower_shield = {
      desc = {
        main = {
          text = "It's like your very on portable wall!"
        }
      },
      name = "tower shield"
    },
    town_book = {
      name = "town book"
    },
    toy = {
      desc = {
        main = {
          text = "A child's toy,"
        }
      },
      name = "toy"
    },
    training_machine = {
      desc = {
        main = {
          text = "Asserian health equipment,"
        }
      },
      name = "training machine"
    },
    trash_can = {
      desc = {
        main = {
          text = "North Tyris laws make it illegal to search,"
        }
      },
      name = "trash can"
    },
    treasure_ball = {
      desc = {
        main = {
          text = "I'm sure there's something good inside,"
        }
      },
      name = "treasure ball"
    },
    treasure_map = {
      desc = {
        main = {
          text = "A map from sources unknown that leads to treasure,"
        }
      },
      name = "treasure map",
      unidentified_name = "crumbling paper"
    },
    tree_of_ash = {
      desc = {
        main = {
          text = "A type of tree,"
        }
      },
      name = "ash"
    },
    tree_of_beech = {
      desc = {
        main = {
          text = "A type of tree,"
        }
      },
      name = "beech"
    },
    tree_of_cedar = {
      desc = {
        main = {
          text = "A type of tree with a scented wood,"
        }
      },
      name = "cedar"
    },
    tree_of_fir = {
      desc = {
        main = {
          text = "A type of tree,"
        }
      },
      name = "fir"
    },
    tree_of_fruitless = {
      desc = {
        main = {
          text = "A tree with no fruits,"
        }
      },
      name = "fruitless"
    },
    tree_of_fruits = {
      desc = {
        main = {
          text = "A fruit tree,"
        }
      },
      name = "fruits"
    },
    tree_of_naked = {
      desc = {
        main = {
          text = "A type of tree,"
        }
      },
      name = "naked"
    },
    tree_of_palm = {
      desc = {
        main = {
          text = "A tree found in warm climates,"
        }
      },
      name = "palm"
    },
    tree_of_zelkova = {
      desc = {
        main = {
          text = "A type of tree,"
        }
      },
      name = "zelkova"
    },
    triangle_plant = {
      name = "triangle plant"
    },
    trident = {
      desc = {
        main = {
          text = "A three pronged polearm,"
        }
      },
      name = "trident"
    },
    tuna = {
      desc = {
        main = {
          text = "A carnivorous fish,"
        }
      },
      name = "tuna"
    },
    twin_edge = {
      name = "<Twin Edge>",
      unidentified_name = "yellow necklace"
    },
    unicorn_horn = {
      desc = {
        main = {
          text = "Known for it's amazing healing properties unicorn horns are also a reminder of how Elonians have driven the species into near extinction,,"
        }
      },
      name = "unicorn horn"
    },
    unknown_seed = {
      desc = {
        main = {
          text = "A type of seed,"
        }
      },
      name = "unknown seed"
    },
    unknown_shell = {
      name = "<Unknown Shell>",
      unidentified_name = "beautiful shell"
    },
    upright_piano = {
      desc = {
        main = {
          text = "A piano commonly found in bars"
        }
      },
      name = "upright piano"
    },
    upstairs = {
      name = "upstairs"
    },
    vanilla_rock = {
      name = "<Vanilla Rock>",
      unidentified_name = "shining rock"
    },
    variety_of_clothes = {
      name = "clothes"
    },
    variety_of_goods = {
      name = "goods"
    },
    variety_of_tools = {
      name = "tools"
    },
    vase = {
      desc = {
        main = {
          text = "A vase on a night stand,"
        }
      },
      name = "vase"
    },
    vegetable_seed = {
      desc = {
        main = {
          text = "A type of seed,"
        }
      },
      name = "vegetable seed"
    },
    vindale_cloak = {
      desc = {
        main = {
          text = "made in vindale"
        }
      },
      name = "vindale cloak"
    },
    vomit = {
      desc = {
        main = {
          text = "Why did you pick this up?,,,"
        }
      },
      name = "vomit"
    },
    wakizashi = {
      desc = {
        main = {
          text = "A short sword usually worn together with a katana,"
        }
      },
      name = "wakizashi"
    },
    wallet = {
      desc = {
        main = {
          text = "A wallet lost by a traveler,"
        }
      },
      name = "wallet"
    },
    washing = {
      desc = {
        main = {
          text = "North Tyris laws have harsh penalties for polluting water,"
        }
      },
      name = "washing"
    },
    washstand = {
      desc = {
        main = {
          text = "The water is dirty..."
        }
      },
      name = "sink"
    },
    water_tub = {
      desc = {
        main = {
          text = 'A warning label reads "Not suitable for golems'
        }
      },
      name = "water tub"
    },
    well = {
      desc = {
        main = {
          text = "Toss a coin in,"
        }
      },
      name = "well"
    },
    well_kept_armor = {
      desc = {
        main = {
          text = "Oiled and polished decorative armor"
        }
      },
      name = "well kept armor"
    },
    whistle = {
      desc = {
        main = {
          text = "Useful for waking people up or just playing pranks,"
        }
      },
      name = "whistle"
    },
    wide_chair = {
      name = "wide chair"
    },
    winchester_premium = {
      name = "<Winchester Premium>",
      unidentified_name = "ancient shot gun"
    },
    wind_bow = {
      name = "<Wind Bow>",
      unidentified_name = "bow surrounded by wind"
    },
    window = {
      name = "window"
    },
    wing = {
      desc = {
        main = {
          text = "A marvel of genetic engineering,"
        }
      },
      name = "wing"
    },
    wood_piece = {
      desc = {
        main = {
          text = "Not dry enough to burn easily,"
        }
      },
      name = "wood piece"
    },
    worthless_fake_gold_bar = {
      desc = {
        main = {
          text = "What a waste of time......,"
        }
      },
      name = "worthless fake gold bar",
      unidentified_name = "valuable gold bar"
    },
    zantetsu = {
      desc = {
        main = {
          text = "Sword rumored to cut through anything,"
        }
      },
      name = "<Zantetsu>",
      unidentified_name = "shining silver katana"
    }
  }

return {
   item = {
      _ = {
         elona = item
      }
   }
}
