-- From OpenNefia (https://github.com/Ruin0x11/OpenNefia, MIT licence: mods/elona/locale/LICENSE),
-- src/mod/elona/locale/en/chara.lua at commit dbe3eaa38fb8730bc74007bf9734a54376429490, unchanged.
return {
   chara = {
      _ = {
         elona = {
            _test = {
               name = "_test"
            },
            abyss = {
               name = "<Abyss> the thief watchman",
            },
            acid_slime = {
               name = "acid slime",
            },
            adamantium_golem = {
               name = "adamantium golem"
            },
            ainc = {
               name = "<Ainc> the novice knight",
            },
            alien = {
               name = "alien"
            },
            ancient_coffin = {
               name = "ancient coffin"
            },
            android = {
               name = "android"
            },
            arena_master = {
               name = "arena master",
            },
            arnord = {
               name = "<Arnord> the injured soldier",
            },
            artist = {
               name = "artist"
            },
            asura = {
               name = "asura"
            },
            at = {
               name = "@",
            },
            azzrssil = {
               name = "<Azzrssil> the impure"
            },
            balzak = {
               name = "<Balzak> the janitor",
            },
            bard = {
               name = "bard",
            },
            bartender = {
               name = "bartender",
            },
            bat = {
               name = "bat"
            },
            beetle = {
               name = "beetle"
            },
            beggar = {
               name = "beggar",
            },
            big_daddy = {
               name = "<Big daddy>",
            },
            bishop = {
               name = "<Bishop>"
            },
            black_angel = {
               name = "black angel",
            },
            black_cat = {
               name = "black cat"
            },
            black_widow = {
               name = "black widow"
            },
            blade = {
               name = "blade"
            },
            blade_alpha = {
               name = "blade alpha"
            },
            blade_omega = {
               name = "blade omega"
            },
            blood_spider = {
               name = "blood spider"
            },
            blue_baptist = {
               name = "blue baptist"
            },
            blue_bubble = {
               name = "blue bubble",
            },
            bomb_rock = {
               name = "bomb rock"
            },
            brown_bear = {
               name = "brown bear"
            },
            bubble = {
               name = "bubble",
            },
            bug = {
               name = "bug"
            },
            cacy = {
               name = "<Cacy> the cat tamer"
            },
            captain = {
               name = "captain",
            },
            caravan_master = {
               name = "caravan master"
            },
            carbuncle = {
               name = "carbuncle"
            },
            cat = {
               name = "cat",
            },
            centipede = {
               name = "centipede"
            },
            cerberus = {
               name = "cerberus"
            },
            chaos_cloud = {
               name = "chaos cloud"
            },
            chaos_dragon = {
               name = "chaos dragon"
            },
            chaos_eye = {
               name = "chaos eye"
            },
            chaos_flower = {
               name = "chaos flower"
            },
            chaos_hound = {
               name = "chaos hound"
            },
            chaos_imp = {
               name = "chaos imp"
            },
            chaos_mushroom = {
               name = "chaos mushroom"
            },
            chicken = {
               name = "chicken",
            },
            citizen = {
               name = "citizen",
            },
            citizen2 = {
               name = "citizen",
            },
            citizen_of_cyber_dome = {
               name = "citizen of cyber dome",
            },
            citizen_of_cyber_dome2 = {
               name = "citizen of cyber dome",
            },
            cleaner = {
               name = "cleaner"
            },
            cobra = {
               name = "cobra"
            },
            conery = {
               name = "<Conery> Palmian major general",
            },
            corgon = {
               name = "<Corgon> the steel dragon"
            },
            cub = {
               name = "cub",
            },
            cube = {
               name = "cube"
            },
            cultist_of_fire = {
               name = "cultist of fire"
            },
            cupid_of_love = {
               name = "cupid of love"
            },
            cute_fairy = {
               name = "cute fairy",
            },
            cyclops = {
               name = "cyclops"
            },
            dark_hound = {
               name = "dark hound"
            },
            death_armor = {
               name = "death armor"
            },
            death_gaze = {
               name = "death gaze"
            },
            defender = {
               name = "defender"
            },
            deformed_eye = {
               name = "deformed eye"
            },
            demi_lich = {
               name = "demi lich"
            },
            dog = {
               name = "dog"
            },
            doria = {
               name = "<Doria> the fighter watchman",
            },
            dragon_bat = {
               name = "dragon bat"
            },
            dungeon_cleaner = {
               name = "<Dungeon cleaner>",
            },
            ebon = {
               name = "<Ebon> the fire giant",
            },
            ebon2 = {
               name = "<Ebon> the fire giant",
            },
            ehekatl = {
               name = "<Ehekatl>"
            },
            elder = {
               name = "elder",
            },
            elec_dragon = {
               name = "elec dragon"
            },
            electric_cloud = {
               name = "electric cloud"
            },
            erystia = {
               name = "<Erystia> the scholar of history",
            },
            euryale = {
               name = "euryale"
            },
            executioner = {
               name = "executioner"
            },
            exile = {
               name = "exile"
            },
            fairy = {
               name = "fairy"
            },
            fallen_soldier = {
               name = "fallen soldier",
            },
            fanatic = {
               name = "Jure fanatic",
            },
            farmer = {
               name = "farmer",
            },
            festival_tourist = {
               name = "festival tourist",
            },
            fighter_guild_member = {
               name = "fighter guild member"
            },
            fire_centipede = {
               name = "fire centipede"
            },
            fire_crab = {
               name = "fire crab"
            },
            fire_drake = {
               name = "fire drake"
            },
            fire_ent = {
               name = "fire ent"
            },
            fire_hound = {
               name = "fire hound"
            },
            floating_eye = {
               name = "floating eye"
            },
            flying_frog = {
               name = "flying frog"
            },
            fray = {
               name = "<Fray> the fighter guildmaster"
            },
            frisia = {
               name = "<Frisia> the cat queen"
            },
            gagu = {
               name = "gagu"
            },
            gangster = {
               name = "gangster"
            },
            garokk = {
               name = "<Garokk> the legendary smith",
            },
            ghost = {
               name = "ghost"
            },
            giant_squirrel = {
               name = "giant squirrel"
            },
            gilbert = {
               name = "<Gilbert> the colonel",
            },
            goblin = {
               name = "goblin"
            },
            goblin_shaman = {
               name = "goblin shaman"
            },
            goblin_warrior = {
               name = "goblin warrior"
            },
            goblin_wizard = {
               name = "goblin wizard"
            },
            god_inside_ehekatl = {
               name = "<God inside Ehekatl>"
            },
            goda = {
               name = "<Goda> the captain of orc"
            },
            gold_bell = {
               name = "gold bell",
            },
            golden_armor = {
               name = "golden armor"
            },
            golden_golem = {
               name = "golden golem"
            },
            golden_knight = {
               name = "golden knight"
            },
            great_race_of_yith = {
               name = "great race of Yith"
            },
            greater_mummy = {
               name = "greater mummy"
            },
            greater_pumpkin = {
               name = "greater pumpkin"
            },
            green_dragon = {
               name = "green dragon"
            },
            grizzly = {
               name = "grizzly"
            },
            grudge = {
               name = "grudge"
            },
            guard = {
               name = "guard",
            },
            guard_port_kapul = {
               name = "guard",
            },
            guild_trainer = {
               name = "guild trainer",
            },
            gwen = {
               name = "<Gwen> the innocent",
            },
            halloween_nightmare = {
               name = "halloween nightmare"
            },
            hand_of_the_chaos = {
               name = "hand of the chaos"
            },
            hand_of_the_dead = {
               name = "hand of the dead"
            },
            hand_of_the_murderer = {
               name = "hand of the murderer"
            },
            hard_gay = {
               name = "hard gay",
            },
            harpy = {
               name = "harpy"
            },
            healer = {
               name = "healer",
            },
            hedgehog = {
               name = "hedgehog"
            },
            hermit_crab = {
               name = "hermit crab"
            },
            holy_beast = {
               name = "holy beast",
            },
            hot_spring_maniac = {
               name = "citizen"
            },
            hound = {
               name = "hound"
            },
            hungry_demon = {
               name = "hungry demon"
            },
            hungry_sea_lion = {
               name = "hungry sea lion"
            },
            ice_drake = {
               name = "ice drake"
            },
            ice_ent = {
               name = "ice ent"
            },
            ice_hound = {
               name = "ice hound"
            },
            icolle = {
               name = "<Icolle> the biologist",
            },
            illusion_hound = {
               name = "illusion hound"
            },
            imp = {
               name = "imp"
            },
            impure_eye = {
               name = "impure eye"
            },
            informer = {
               name = "informer",
            },
            iron_maiden = {
               name = "iron maiden"
            },
            isca = {
               name = "<Isca> the fallen angel"
            },
            issizzle = {
               name = "<Issizzle> the dark abomination"
            },
            juere_infantry = {
               name = "juere infantry"
            },
            juere_swordman = {
               name = "juere swordman"
            },
            kamikaze_samurai = {
               name = "kamikaze samurai"
            },
            kamikaze_yeek = {
               name = "kamikaze yeek"
            },
            kaneda_bike = {
               name = "<Kaneda Bike>",
            },
            karam = {
               name = "<Karam> the lonely wolf of Karune",
            },
            killer_squirrel = {
               name = "killer squirrel"
            },
            king = {
               name = "<King>"
            },
            king_cobra = {
               name = "king cobra"
            },
            king_scorpion = {
               name = "king scorpion"
            },
            knight = {
               name = "<Knight>"
            },
            kobold = {
               name = "kobold"
            },
            kumiromi = {
               name = "<Kumiromi>"
            },
            lame_horse = {
               name = "lame horse",
            },
            larnneire = {
               name = "<Larnneire> the listener of wind",
            },
            lesser_mummy = {
               name = "lesser mummy"
            },
            lesser_phantom = {
               name = "lesser phantom"
            },
            lexus = {
               name = "<Lexus> the guild watchman",
            },
            lich = {
               name = "lich"
            },
            lightning_hound = {
               name = "lightning hound"
            },
            lily = {
               name = "Pael's mom <Lily>",
            },
            lion = {
               name = "lion",
            },
            little_girl = {
               name = "little girl",
            },
            little_sister = {
               name = "<Little sister>",
            },
            living_armor = {
               name = "living armor"
            },
            lizard_man = {
               name = "lizard man"
            },
            lomias = {
               name = "<Lomias> the messenger from Vindale",
            },
            loyter = {
               name = "<Loyter> the crimson of Zanan",
            },
            lulwy = {
               name = "<Lulwy>"
            },
            mad_gaze = {
               name = "mad gaze"
            },
            mad_scientist = {
               name = "<Mad scientist>"
            },
            mage_guild_member = {
               name = "mage guild member"
            },
            maid = {
               name = "maid",
            },
            mammoth = {
               name = "Mammoth"
            },
            man_eater_flower = {
               name = "man eater flower"
            },
            mandrake = {
               name = "mandrake"
            },
            mani = {
               name = "<Mani>"
            },
            marks = {
               name = "<Marks> the great thief",
            },
            mass_monster = {
               name = "mass monster"
            },
            master_lich = {
               name = "master lich"
            },
            pet_arena_master = {
               name = "master of pet arena"
            },
            master_thief = {
               name = "master thief",
            },
            master_yeek = {
               name = "master yeek"
            },
            medusa = {
               name = "medusa"
            },
            mercenary = {
               name = "mercenary",
            },
            mercenary_archer = {
               name = "mercenary archer"
            },
            mercenary_warrior = {
               name = "mercenary warrior"
            },
            mercenary_wizard = {
               name = "mercenary wizard"
            },
            messenger_of_death = {
               name = "messenger of death"
            },
            mia = {
               name = "<Mia> the cat freak",
            },
            miches = {
               name = "<Miches> the apprentice",
            },
            mine_dog = {
               name = "mine dog"
            },
            miner = {
               name = "miner"
            },
            minotaur = {
               name = "minotaur"
            },
            minotaur_boxer = {
               name = "minotaur boxer"
            },
            minotaur_king = {
               name = "minotaur king"
            },
            minotaur_magician = {
               name = "minotaur magician"
            },
            miral = {
               name = "<Miral> the legendary smith",
            },
            missionary_of_darkness = {
               name = "missionary of darkness"
            },
            mithril_golem = {
               name = "mithril golem"
            },
            mitra = {
               name = "mitra"
            },
            moyer_the_crooked = {
               name = "<Moyer> the crooked",
            },
            mummy = {
               name = "mummy"
            },
            mushroom = {
               name = "mushroom"
            },
            mutant = {
               name = "mutant"
            },
            mysterious_producer = {
               name = "<Mysterious Producer>",
            },
            nerve_hound = {
               name = "nerve hound"
            },
            nether_dragon = {
               name = "nether dragon"
            },
            nether_hound = {
               name = "nether hound"
            },
            nether_imp = {
               name = "nether imp"
            },
            noble = {
               name = "noble"
            },
            noble_child = {
               name = "noble child"
            },
            noel = {
               name = "<Noel> the bomber",
            },
            noyel_horse = {
               name = "Noyel horse",
            },
            nun = {
               name = "sister",
            },
            nurse = {
               name = "nurse"
            },
            nymph = {
               name = "nymph"
            },
            old_person = {
               name = "old person",
            },
            opatos = {
               name = "<Opatos>"
            },
            orc = {
               name = "orc"
            },
            orc_warrior = {
               name = "orc warrior"
            },
            orphe = {
               name = "<Orphe> the chaos child",
            },
            pael = {
               name = "Lonely <Pael>",
            },
            palmian_elite_soldier = {
               name = "palmian elite soldier",
            },
            paralyzer = {
               name = "paralyzer"
            },
            part_time_worker = {
               name = "part time worker",
            },
            pawn = {
               name = "<Pawn>"
            },
            poison_hound = {
               name = "poison hound"
            },
            poppy = {
               name = "<Poppy> the little dog",
            },
            prisoner = {
               name = "prisoner"
            },
            prostitute = {
               name = "prostitute"
            },
            public_performer = {
               name = "public performer"
            },
            pumpkin = {
               name = "pumpkin"
            },
            punk = {
               name = "punk"
            },
            puppet = {
               name = "puppet"
            },
            puppy = {
               name = "puppy"
            },
            putit = {
               name = "putit",
            },
            queen = {
               name = "<Queen>"
            },
            quickling = {
               name = "quickling"
            },
            quickling_archer = {
               name = "quickling archer"
            },
            quruiza = {
               name = "<Quruiza> the red-eyed Deceiver"
            },
            rabbit = {
               name = "rabbit"
            },
            raphael = {
               name = "<Raphael> the womanizer",
            },
            rat = {
               name = "rat"
            },
            red_baptist = {
               name = "red baptist"
            },
            red_dragon = {
               name = "red dragon"
            },
            red_putit = {
               name = "red putit",
            },
            red_wasp = {
               name = "red wasp"
            },
            renton = {
               name = "<Renton> the suffering wizard",
            },
            revlus = {
               name = "<Revlus> the mage guildmaster",
            },
            rich_person = {
               name = "rich person"
            },
            rilian = {
               name = "<Rilian> the dog lover",
            },
            robber = {
               name = "robber",
            },
            rock_thrower = {
               name = "rock thrower"
            },
            rodlob = {
               name = "<Rodlob> the boss of yeeks"
            },
            rogue = {
               name = "rogue"
            },
            rogue_archer = {
               name = "rogue archer"
            },
            rogue_boss = {
               name = "rogue boss"
            },
            rogue_warrior = {
               name = "rogue warrior"
            },
            rogue_wizard = {
               name = "rogue wizard"
            },
            rook = {
               name = "<Rook>"
            },
            sailor = {
               name = "sailor",
            },
            sales_person = {
               name = "sales person"
            },
            scorpion = {
               name = "scorpion"
            },
            shade = {
               name = "shade"
            },
            shadow_stalker = {
               name = "shadow stalker"
            },
            shena = {
               name = "<Shena> the draw",
            },
            shining_hedgehog = {
               name = "shining hedgehog"
            },
            shopkeeper = {
               name = "shopkeeper",
            },
            shub_niggurath = {
               name = "Shub-Niggurath"
            },
            silver_bell = {
               name = "silver bell",
            },
            silver_cat = {
               name = "silver cat",
            },
            silver_eyed_witch = {
               name = "silver eyed witch",
            },
            silver_wolf = {
               name = "silver wolf",
            },
            silvia = {
               name = "<Silvia> The princess",
            },
            sin = {
               name = "<Sin> the thief guildmaster"
            },
            sister = {
               name = "sister"
            },
            skeleton_berserker = {
               name = "skeleton berserker"
            },
            skeleton_warrior = {
               name = "skeleton warrior"
            },
            sky_golem = {
               name = "sky golem"
            },
            slan = {
               name = "<Slan> the shadow of Palmia",
            },
            slime = {
               name = "slime",
            },
            snail = {
               name = "snail",
            },
            sound_hound = {
               name = "sound hound"
            },
            spider = {
               name = "spider"
            },
            spiral_king = {
               name = "spiral king"
            },
            spore_mushroom = {
               name = "spore mushroom"
            },
            stalker = {
               name = "stalker"
            },
            steel_golem = {
               name = "steel golem"
            },
            steel_mass = {
               name = "steel mass"
            },
            stersha = {
               name = "<Stersha> the queen of Palmia",
            },
            stheno = {
               name = "stheno"
            },
            stone_golem = {
               name = "stone golem"
            },
            strange_scientist = {
               name = "<Strange scientist>",
            },
            stray_cat = {
               name = "stray cat",
            },
            super_hungry_sea_lion = {
               name = "super hungry sea lion"
            },
            tam = {
               name = "<Tam> the cat hater",
            },
            tarantula = {
               name = "tarantula"
            },
            test_subject = {
               name = "<Stersha> the queen of Palmia"
            },
            the_leopard_warrior = {
               name = "<The leopard warrior>",
            },
            thief = {
               name = "thief",
            },
            thief_guild_member = {
               name = "thief guild member"
            },
            titan = {
               name = "titan",
            },
            tourist = {
               name = "tourist"
            },
            town_child = {
               name = "town child",
            },
            trainer = {
               name = "trainer",
            },
            troll = {
               name = "troll"
            },
            tuwen = {
               name = "<Tuwen> the master of the pyramid"
            },
            twintail = {
               name = "twintail",
            },
            tyrannosaurus = {
               name = "Tyrannosaurus"
            },
            ungaga = {
               name = "<Ungaga> the minotaur king"
            },
            user = {
               name = "user"
            },
            utima = {
               name = "<Utima> the destroyer of Xeren"
            },
            vampire_bat = {
               name = "vampire bat"
            },
            varuna = {
               name = "varuna"
            },
            vesda = {
               name = "<Vesda> the fire dragon"
            },
            warrior = {
               name = "warrior"
            },
            warrior_of_elea = {
               name = "warrior of Elea"
            },
            wasp = {
               name = "wasp"
            },
            white_dragon = {
               name = "white dragon"
            },
            whom_dwell_in_the_vanity = {
               name = "<Whom dwell in the vanity>",
            },
            wild_horse = {
               name = "wild horse",
            },
            wild_horse2 = {
               name = "wild horse",
            },
            wild_sheep = {
               name = "wild sheep"
            },
            wisp = {
               name = "wisp"
            },
            wizard = {
               name = "wizard"
            },
            wizard_of_elea = {
               name = "wizard of Elea"
            },
            wooden_golem = {
               name = "wooden golem"
            },
            wynan = {
               name = "<Wynan> the lord of the Ancient Castle"
            },
            wyvern = {
               name = "wyvern"
            },
            xabi = {
               name = "<Xabi> the king of Palmia"
            },
            yeek = {
               name = "yeek"
            },
            yeek_archer = {
               name = "yeek archer"
            },
            yeek_warrior = {
               name = "yeek warrior"
            },
            yerles_elite_machine_infantry = {
               name = "Yerles elite machine infantry"
            },
            yerles_machine_infantry = {
               name = "Yerles machine infantry"
            },
            yerles_self_propelled_gun = {
               name = "yerles self-propelled gun"
            },
            young_lady = {
               name = "young lady"
            },
            younger_cat_sister = {
               name = "younger cat sister"
            },
            younger_sister = {
               name = "younger sister"
            },
            younger_sister_of_mansion = {
               name = "younger sister"
            },
            yowyn_horse = {
               name = "Yowyn horse",
            },
            zeome = {
               name = "<Zeome> the false prophet",
            },
            zombie = {
               name = "zombie"
            }
         }
      }
   }
}
